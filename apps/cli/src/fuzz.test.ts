/**
 * Fuzz suite over every public route of the all-in-one platform (security item 9).
 *
 * The routes come from the running gateway's own `GET /openapi.json`: every path and method, `{id}` filled with real
 * ids (collected from the lists after seeding), well-formed ids of the right prefix, ids of another kind and junk;
 * bodies generated from each route's JSON schema, then mutated, or replaced by raw junk (deep nesting, huge sizes,
 * invalid UTF-8, lone surrogates, NUL, -0, 1e999, 2^53+1 …) under odd Content-Type and Content-Encoding headers; list
 * routes get garbage query strings. Each input must be answered below 500 within 10 s, and the platform must keep
 * answering `/health`. A failure prints the request (method, path, headers, body) after fast-check shrinks it.
 *
 * `npm test` runs about 5,000 inputs; `FUZZ_RUNS=100000 npx vitest run apps/cli/src/fuzz.test.ts` runs a long one
 * (`FUZZ_SEED=<n>` replays a seed that fast-check printed).
 */
import { request as httpRequest, Agent } from "node:http";
import { readFile } from "node:fs/promises";
import { gzipSync, deflateSync } from "node:zlib";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENT_KINDS } from "@cardhold/contracts";
import { ID_PREFIXES } from "@cardhold/platform";
import { startAllInOne, type AllInOne } from "./all-in-one";

const OPERATOR_TOKEN = "operator-token-for-fuzz-0123456";
const TOTAL_RUNS = Number(process.env.FUZZ_RUNS ?? 5_000);
/**
 * The bounded run in `npm test` replays a fixed seed, so CI is repeatable; a long run (FUZZ_RUNS) explores from a
 * fresh random seed unless FUZZ_SEED names one.
 */
const SEED =
  process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : process.env.FUZZ_RUNS ? undefined : 20_261_123;
const HANG_MS = 10_000;

type Json = Record<string, any>;
interface Operation {
  method: string;
  path: string;
  bodySchema?: Json;
  list: boolean;
  admin: boolean;
}
/** One HTTP request, plain data so fast-check prints and shrinks it. */
interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Text, or `{ base64 }` for bytes that are not UTF-8 (or compressed). */
  body?: string | { base64: string };
}

let platform: AllInOne;
let doc: Json;
const operations: Operation[] = [];
let testKey = "";
let liveKey: string | undefined;
let businessId = "";
const realIds = new Map<string, string[]>(); // prefix → ids seen
/** Every short string the lists answered (ids, account numbers, event kinds …): candidates for patterned fields. */
const seenStrings = new Set<string>();
/** Known-good bodies per route (from the seeding), mutated like generated ones: they reach past validation. */
const examples = new Map<string, Json>();
/** Never deleted: the seeded active card (authorizations on it stay reachable), the fuzz's own API keys. */
const kept = new Set<string>();
const agent = new Agent({ keepAlive: true, maxSockets: 8 });

// ---------------------------------------------------------------------------------------------------------------
// Sending and describing requests

function bodyBytes(body: FuzzRequest["body"]): Buffer | undefined {
  if (body === undefined) return undefined;
  return typeof body === "string" ? Buffer.from(body, "utf8") : Buffer.from(body.base64, "base64");
}

function describeRequest(r: FuzzRequest): string {
  const bytes = bodyBytes(r.body);
  const shown =
    r.body === undefined
      ? "(none)"
      : typeof r.body === "string"
        ? JSON.stringify(r.body.length > 2_000 ? r.body.slice(0, 2_000) + `… (${r.body.length} chars in all)` : r.body)
        : `base64 ${r.body.base64.length > 2_000 ? r.body.base64.slice(0, 2_000) + "…" : r.body.base64}`;
  return [
    `${r.method} ${r.path}`,
    `headers: ${JSON.stringify(r.headers)}`,
    `body (${bytes?.length ?? 0} bytes): ${shown}`,
  ].join("\n  ");
}

interface Answer {
  status: number;
  text: string;
}

function send(r: FuzzRequest): Promise<Answer> {
  const url = new URL(platform.url);
  const bytes = bodyBytes(r.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: r.method,
        path: r.path,
        agent,
        headers: { ...r.headers, ...(bytes ? { "content-length": String(bytes.length) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8").slice(0, 500) });
        });
        res.on("error", (error) => {
          clearTimeout(timer);
          reject(error);
        });
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${HANG_MS} ms (hang)`)), HANG_MS);
    req.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(bytes);
  });
}

let sent = 0;
/** Answers per route template and status class, printed at the end with FUZZ_STATS=1 (to see how deep inputs reach). */
const stats = new Map<string, number>();
/** The property: an answer below 500 within 10 s; every 100 requests, and after any failure, /health still answers. */
async function answersBelow500(r: FuzzRequest): Promise<void> {
  sent++;
  let answer: Answer;
  try {
    answer = await send(r);
  } catch (error) {
    throw new Error(
      `no HTTP answer (${(error as Error).message}); platform ${await healthLine()}\n  ${describeRequest(r)}`,
    );
  }
  if (process.env.FUZZ_STATS) {
    const route = `${r.method} ${r.path.split("?")[0]!.replace(/\/[^/]*\.[^/]*/g, "/{id}")}`;
    const why =
      answer.status === 400
        ? /"path":"([^"]*)"|"code":"([^"]*)"/.exec(
            answer.text.replace(/"statusCode":400,"code":"invalid-request",/, ""),
          )
        : undefined;
    const key = `${route} ${answer.status}${why ? ` ${why[1] ?? why[2]}` : ""}`;
    stats.set(key, (stats.get(key) ?? 0) + 1);
  }
  if (answer.status >= 500) {
    throw new Error(`answered ${answer.status}: ${answer.text}\n  ${describeRequest(r)}`);
  }
  if (sent % 100 === 0) {
    const health = await healthLine();
    if (health !== "healthy") throw new Error(`platform stopped answering after\n  ${describeRequest(r)}\n  ${health}`);
  }
}

async function healthLine(): Promise<string> {
  try {
    const answer = await send({ method: "GET", path: "/health", headers: {} });
    return answer.status === 200 ? "healthy" : `health answered ${answer.status}`;
  } catch (error) {
    return `health failed: ${(error as Error).message}`;
  }
}

async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<any> {
  const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const url = new URL(platform.url);
    const bytes = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        agent,
        headers: { authorization: `Bearer ${testKey}`, "content-type": "application/json", ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      },
    );
    req.on("error", reject);
    req.end(bytes);
  });
  try {
    return { status: answer.status, body: JSON.parse(answer.text) };
  } catch {
    return { status: answer.status, body: answer.text };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Setup: one platform for the file, a business with a test and a live key, a few real records, the route list

function remember(id: unknown) {
  if (typeof id !== "string") return;
  const prefix = Object.values(ID_PREFIXES)
    .filter((p) => id.startsWith(p))
    .sort((a, b) => b.length - a.length)[0];
  if (!prefix) return;
  const list = realIds.get(prefix) ?? [];
  if (!list.includes(id) && list.length < 20) list.push(id);
  realIds.set(prefix, list);
}

function collectStrings(value: unknown, depth = 0): void {
  if (depth > 8 || seenStrings.size > 2_000) return;
  if (typeof value === "string" && value.length > 0 && value.length <= 100) seenStrings.add(value);
  else if (value && typeof value === "object") for (const v of Object.values(value)) collectStrings(v, depth + 1);
}

async function seed() {
  const fixture = JSON.parse(
    await readFile(new URL("../../../test/fixtures/customer-create-response.json", import.meta.url), "utf8"),
  ).data;
  const example = async (method: string, path: string, body: Json, template = path) => {
    examples.set(`${method} ${template}`, body);
    const answer = await api(method, path, body);
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
    remember(answer.body?.data?.id);
    return answer.body?.data;
  };
  const customerBody = {
    name: fixture.name,
    reference: "fuzz-seed-1",
    type: fixture.type,
    claims: fixture.claims,
    verifications: ["tier-2"],
    metadata: fixture.metadata,
  };
  const customer = await example("POST", "/customers", customerBody);
  examples.set("PUT /customers/{id}", customerBody);
  await example("POST", "/webhooks", {
    name: "Fuzz",
    url: "https://example.com/hook",
    events: ["card.transaction.created"],
  });
  const program = await example("POST", "/card-programs", {
    name: "Fuzz",
    network: "verve",
    type: "virtual",
    currency: "NGN",
  });
  const card = await example("POST", "/cards", {
    program: program.id,
    customer: customer.id,
    reference: "fuzz-card-1",
  });
  examples.set("POST /simulation/cards/{id}/request-authorization/capture", {
    channel: "online",
    amount: 5_000,
    fees: 10,
  });
  examples.set("POST /simulation/cards/{id}/request-authorization/check", { channel: "pos" });
  examples.set("POST /cards/{id}/fund", { amount: 100 });
  remember(card.id);
  kept.add(card.id);
  const secrets = await api("GET", `/cards/${card.id}/secrets`);
  const activated = await api("POST", `/cards/${card.id}/activate`, { cvv: secrets.body?.data?.cvv, pin: "1234" });
  expect(activated.status, JSON.stringify(activated.body)).toBe(200);
  const capture = await api("POST", `/simulation/cards/${card.id}/request-authorization/capture`, {
    channel: "online",
    amount: 5_000,
  });
  expect(capture.status, JSON.stringify(capture.body)).toBe(200);
  // Every list the document names gives ids of its kind.
  for (const op of operations.filter((o) => o.list)) {
    const page = await api("GET", `${op.path}?limit=5`);
    if (Array.isArray(page.body?.data)) for (const item of page.body.data) remember(item?.id);
    collectStrings(page.body);
  }
  for (const [, ids] of realIds) for (const id of ids) seenStrings.add(id);
  for (const kind of EVENT_KINDS) seenStrings.add(kind);
}

beforeAll(async () => {
  platform = await startAllInOne({ port: 0, logLevel: "silent", operatorToken: OPERATOR_TOKEN });
  const created = await api(
    "POST",
    "/admin/businesses",
    { name: "Fuzz", webhookUrl: "http://127.0.0.1:9/hook" },
    { "x-operator-token": OPERATOR_TOKEN, authorization: "" },
  );
  expect(created.status).toBe(201);
  testKey = created.body.data.testKey;
  businessId = created.body.data.business.id;
  remember(businessId);
  const live = await api(
    "POST",
    `/admin/businesses/${businessId}/keys`,
    { mode: "live" },
    { "x-operator-token": OPERATOR_TOKEN },
  );
  if (live.status === 201) liveKey = live.body.data.key;
  // The fuzz's own keys are never revoked by it (DELETE /api-keys/{id}): it would lock itself out.
  const ownKeys = await api("GET", `/admin/businesses/${businessId}/keys`, undefined, {
    "x-operator-token": OPERATOR_TOKEN,
  });
  for (const key of ownKeys.body.data as { id: string }[]) kept.add(key.id);

  doc = (await api("GET", "/openapi.json")).body;
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      operations.push({
        method: method.toUpperCase(),
        path,
        bodySchema: op.requestBody?.content?.["application/json"]?.schema,
        list: method === "get" && (op.parameters ?? []).some((p: Json) => p.in === "query" && p.name === "filter"),
        admin: (op.security ?? []).some((s: Json) => "operatorToken" in s),
      });
    }
  }
  await seed();
}, 120_000);

afterAll(async () => {
  if (process.env.FUZZ_STATS)
    console.log(
      [...stats]
        .sort()
        .map(([k, n]) => `${k}: ${n}`)
        .join("\n"),
    );
  agent.destroy();
  await platform?.stop();
});

// ---------------------------------------------------------------------------------------------------------------
// Generators

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const idBody = fc.string({ unit: fc.constantFrom(...BASE58), minLength: 17, maxLength: 17 });
const printable = fc.string({
  unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 40,
});

/** The id prefix a path segment stands for (`/cards/{id}` → `c.`). */
const PREFIX_BY_SEGMENT: Record<string, string> = {
  customers: ID_PREFIXES.customer,
  webhooks: ID_PREFIXES.webhook,
  events: ID_PREFIXES.event,
  cards: ID_PREFIXES.card,
  "card-programs": ID_PREFIXES.cardProgram,
  accounts: ID_PREFIXES.account,
  "card-authorizations": ID_PREFIXES.authorization,
  "card-transactions": ID_PREFIXES.transaction,
  payments: ID_PREFIXES.payment,
  products: ID_PREFIXES.billProduct,
  businesses: ID_PREFIXES.business,
  fees: ID_PREFIXES.fee,
  merchants: ID_PREFIXES.merchant,
  billings: ID_PREFIXES.billing,
  requests: ID_PREFIXES.request,
  disputes: ID_PREFIXES.dispute,
  "payment-requests": ID_PREFIXES.paymentRequest,
  "api-keys": ID_PREFIXES.apiKey,
};

/** Raw path segments: already in the characters an HTTP request line may carry. */
const JUNK_SEGMENTS = [
  "",
  "%20",
  "%00",
  "%",
  "%zz",
  "%E0%A4%A",
  "%ED%A0%80",
  "%C0%AF",
  "..",
  "%2e%2e",
  "%2F",
  "a%2Fb",
  "null",
  "undefined",
  "__proto__",
  "constructor",
  "1e308",
  "-0",
  "NaN",
  "9007199254740993",
  "%F0%9F%98%80",
  "'%20OR%201=1--",
  "%3Cscript%3E",
  "x".repeat(5_000),
  "c.auth.",
  "cus.",
  "cus.0OIl0OIl0OIl0OIl0",
  "cus." + "1".repeat(300),
];

function idArb(segment: string, deleting: boolean): fc.Arbitrary<string> {
  const prefix = PREFIX_BY_SEGMENT[segment] ?? "x.";
  const real = (realIds.get(prefix) ?? []).filter((id) => !(deleting && kept.has(id)));
  const anyPrefix = fc.constantFrom(...Object.values(ID_PREFIXES));
  return fc.oneof(
    { weight: 4, arbitrary: real.length > 0 ? fc.constantFrom(...real) : idBody.map((b) => prefix + b) },
    { weight: 3, arbitrary: idBody.map((b) => prefix + b) },
    { weight: 1, arbitrary: fc.tuple(anyPrefix, idBody).map(([p, b]) => p + b) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...[...realIds.values()].flat().filter((id) => !(deleting && kept.has(id))), "bus.x"),
    },
    { weight: 2, arbitrary: fc.constantFrom(...JUNK_SEGMENTS) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 30 }).map(safeEncode) },
    { weight: 1, arbitrary: printable.map((s) => s.replace(/[/?#]/g, "")) },
  );
}

/** encodeURIComponent that does not throw on lone surrogates (sends their WTF-8 bytes). */
function safeEncode(text: string): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff)
      out += `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`;
    else out += encodeURIComponent(ch);
  }
  return out;
}

/** Raw JSON tokens JSON.stringify cannot produce, spliced into bodies through placeholder strings. */
const RAW_TOKENS = [
  "-0",
  "1e308",
  "1E+308",
  "-1e308",
  "1e999",
  "-1e999",
  "9007199254740993",
  "-9007199254740993",
  "1e-400",
  "5e-324",
  "123456789012345678901234567890",
  "0.30000000000000004",
  '"\\ud800"',
  '"\\udfff"',
  '"a\\ud800b"',
  '"\\u0000"',
  '"a\\u0000b"',
  '"\\uDBFF\\uDFFF"',
  '"\\u202e"',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"a":1,"a":2}',
  "[".repeat(40) + "]".repeat(40),
  '"' + "€".repeat(30_000) + '"',
];
const rawToken = fc.nat({ max: RAW_TOKENS.length - 1 }).map((i) => `\u0001RAW:${i}\u0001`);

function toJsonText(value: unknown): string {
  return (JSON.stringify(value) ?? "null").replace(
    /"\\u0001RAW:(\d+)\\u0001"/g,
    (_, i: string) => RAW_TOKENS[Number(i)]!,
  );
}

function nested(depth: number, kind: "array" | "object"): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = kind === "array" ? [value] : { a: value };
  return value;
}

/** Values of the wrong type, at the edges of numbers and text, or odd in shape. */
const junkValue = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.constantFrom(
      1e308,
      -1e308,
      2 ** 53 + 1,
      -(2 ** 53 + 1),
      Number.MAX_SAFE_INTEGER,
      Number.MIN_VALUE,
      2 ** 31,
      2 ** 63,
      0.1,
      1.5,
      -1,
      0,
      "NaN",
      "Infinity",
      "-Infinity",
      "-0",
      "1e308",
      "0x10",
      "",
      " ",
      "\u0000",
      "a\u0000b",
      "\ud800",
      "a\udfffb",
      "😀",
      "\u202e",
      "%00",
      "../../etc/passwd",
      "' OR 1=1 --",
      "x".repeat(10_000),
      "x".repeat(300),
      null,
      true,
      false,
      [],
      {},
      [1, 2],
      [[]],
      [{}],
      { __proto__: null, polluted: 1 },
      "2023-02-30",
      "0000-00-00",
      "9999-99-99T99:99:99Z",
      "http://[::1",
      "javascript:alert(1)",
      "bus.x",
      "cus.",
      ...Object.values(ID_PREFIXES),
    ),
    rawToken,
    fc.constantFrom(nested(31, "array"), nested(31, "object"), nested(33, "array"), nested(200, "object")),
    fc.string({ unit: "binary", maxLength: 20 }),
    fc.string({ unit: "grapheme", maxLength: 20 }),
    fc.integer(),
    fc.double(),
    fc.jsonValue({ maxDepth: 2 }),
    fc.array(fc.constantFrom(...[...realIds.values()].flat(), "x"), { maxLength: 3 }),
  );

/** Follows a local `$ref` (zod puts shared or recursive parts in the body schema's own `$defs`). */
function resolveRef(schema: Json): Json {
  if (typeof schema.$ref !== "string" || !schema.$ref.startsWith("#/")) return schema;
  let at: any = currentRoot;
  for (const part of schema.$ref.slice(2).split("/")) at = at?.[part];
  return at ?? {};
}
let currentRoot: Json = {};

/** A value for a JSON Schema: type, properties, required, enum, const, items, anyOf/oneOf, min/max, lengths, formats. */
function fromSchema(input: Json, depth = 0, name = ""): fc.Arbitrary<unknown> {
  const schema = resolveRef(input);
  if (depth > 6) return fc.constant(null);
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives) && alternatives.length > 0)
    return fc.oneof(...alternatives.map((s: Json) => fromSchema(s, depth + 1, name)));
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0)
    return fromSchema({ ...schema.allOf[0], ...schema, allOf: undefined }, depth);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "string":
      return stringFor(schema, name);
    case "integer":
    case "number": {
      const min = Math.max(
        schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1_000_000),
        -1e9,
      );
      const max = Math.min(
        schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 10_000_000),
        1e12,
      );
      return type === "integer"
        ? fc.integer({ min: Math.ceil(min), max: Math.max(Math.ceil(min), Math.floor(max)) })
        : fc.double({ min, max: Math.max(min, max), noNaN: true });
    }
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(schema.items ? fromSchema(schema.items, depth + 1, name) : fc.jsonValue({ maxDepth: 1 }), {
        minLength: Math.min(schema.minItems ?? 0, 3),
        maxLength: Math.max(Math.min(schema.maxItems ?? 3, 3), Math.min(schema.minItems ?? 0, 3)),
      });
    case "object": {
      const properties: Json = schema.properties ?? {};
      const required: string[] = (schema.required ?? []).filter((k: string) => k in properties);
      const record = fc.record(
        Object.fromEntries(Object.entries(properties).map(([k, s]) => [k, fromSchema(s as Json, depth + 1, k)])),
        { requiredKeys: required },
      );
      if (
        schema.additionalProperties &&
        typeof schema.additionalProperties === "object" &&
        Object.keys(properties).length === 0
      ) {
        return fc.dictionary(fc.string({ maxLength: 10 }), fromSchema(schema.additionalProperties, depth + 1), {
          maxKeys: 3,
        });
      }
      return record;
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

const URLS = [
  "http://127.0.0.1:9/hook",
  "https://example.com/x",
  "ftp://x",
  "http://169.254.169.254/",
  "http://[::1]:9/",
  "https://x.test/" + "a".repeat(2_100),
];

function stringFor(schema: Json, name: string): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 30, 60));
  const plain = fc.string({ minLength, maxLength });
  const ids = [...seenStrings];
  if (/url$/i.test(name) && !schema.format) return fc.oneof(fc.constantFrom(...URLS), plain);
  if (name === "events")
    return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...EVENT_KINDS) }, { weight: 1, arbitrary: plain });
  switch (schema.format) {
    case "email":
      return fc.emailAddress();
    case "date":
      return fc
        .date({ min: new Date("1900-01-01"), max: new Date("2100-01-01"), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case "date-time":
      return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
    case "uri":
    case "url":
      return fc.constantFrom(...URLS);
  }
  if (typeof schema.pattern === "string") {
    const pattern = new RegExp(schema.pattern as string);
    const seen = [...seenStrings].filter((s) => pattern.test(s));
    const matching = fc.stringMatching(pattern).filter((s) => s.length <= 200);
    return fc.oneof(
      { weight: seen.length > 0 ? 4 : 0, arbitrary: fc.constantFrom(...seen, "") },
      { weight: 2, arbitrary: matching },
      { weight: 1, arbitrary: plain },
    );
  }
  return fc.oneof(
    { weight: 3, arbitrary: plain },
    { weight: 1, arbitrary: fc.constantFrom(...ids, "NGN", "USD", "verve", "1234") },
  );
}

/** Replaces the value at a path picked by `picks` (an index at each level) with `junk`. */
function mutate(value: unknown, picks: number[], junk: unknown): unknown {
  if (picks.length === 0 || value === null || typeof value !== "object") return junk;
  const [pick, ...rest] = picks;
  if (Array.isArray(value)) {
    if (value.length === 0) return [junk];
    const copy = [...value];
    copy[pick! % copy.length] = mutate(copy[pick! % copy.length], rest, junk);
    return copy;
  }
  const keys = Object.keys(value);
  const copy: Json = { ...(value as Json) };
  if (keys.length === 0 || pick! % (keys.length + 1) === keys.length) {
    copy[["__proto__x", "extra", "constructor", "toString", "id", "businessId", "mode"][pick! % 7]!] = junk;
    return copy;
  }
  const key = keys[pick! % keys.length]!;
  copy[key] = mutate(copy[key], rest, junk);
  return copy;
}

function bodyFor(op: Operation): fc.Arbitrary<unknown> {
  currentRoot = op.bodySchema ?? {};
  const generated = op.bodySchema ? fromSchema(op.bodySchema) : fc.constant({});
  const example = examples.get(`${op.method} ${op.path}`);
  const valid = example
    ? fc.oneof(
        generated,
        fc.stringMatching(/^[A-Za-z0-9-]{1,20}$/).map((reference) => ({ ...example, reference })),
      )
    : generated;
  const mutated = fc
    .tuple(valid, fc.array(fc.nat(), { maxLength: 4 }), junkValue())
    .map(([v, picks, junk]) => mutate(v, picks, junk));
  return fc.oneof(
    { weight: 4, arbitrary: valid },
    { weight: 3, arbitrary: mutated },
    { weight: 1, arbitrary: junkValue() },
  );
}

const LIST_PARAMS = [
  "limit",
  "sort",
  "select",
  "expand",
  "filter",
  "or",
  "nor",
  "and",
  "before",
  "after",
  "countTotal",
];
const grammarish = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        "name",
        "amount",
        "metadata.a",
        "createdAt",
        "customer",
        "customer.id",
        "status",
        "id",
        "-",
        "|",
        ":",
        "=",
        "!=",
        ">",
        ">=",
        "<",
        "<=",
        "~",
        '"',
        "\\",
        " ",
        ",",
        ".",
        "|eq|",
        "|in|",
        "|all|",
        "|size|",
        "|gtd|",
        "|exists|",
        "|like|",
        "|regex|",
        "true",
        "2023-01-01",
        "2023-13-45T99:00:00Z",
        "12",
        "-3.5",
        "1e308",
        "-0",
        "9007199254740993",
        "NaN",
        "null",
        "%",
        "*",
        "'",
        ";",
        "$where",
        "__proto__",
        "account",
        "program",
        "apiKey",
        "webhook",
      ),
      fc.string({ maxLength: 4 }),
    ),
    { maxLength: 10 },
  )
  .map((parts) => parts.join(""));
const queryValue = () =>
  fc.oneof(
    grammarish,
    fc.string({ maxLength: 30 }),
    fc.string({ unit: "binary", maxLength: 10 }),
    fc.constantFrom(
      "",
      "0",
      "-1",
      "-0",
      "101",
      "1e308",
      "9007199254740993",
      "NaN",
      "Infinity",
      "0x10",
      "1.5",
      " 5",
      "x".repeat(5_000),
    ),
    fc.constantFrom(...[...realIds.values()].flat(), "cus.", "c.auth.x"),
  );
/** One query parameter as it travels: encoded, raw, bare, bracketed (qs objects and arrays). */
const queryPart = () =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.tuple(fc.constantFrom(...LIST_PARAMS), queryValue()).map(([k, v]) => `${k}=${safeEncode(v)}`),
    },
    { weight: 1, arbitrary: fc.constantFrom(...LIST_PARAMS) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...LIST_PARAMS),
          fc.constantFrom("[]", "[a]", "[$gt]", "[0]", "[__proto__]", "[a][b][c][d][e][f]"),
          queryValue(),
        )
        .map(([k, b, v]) => `${k}${encodeURIComponent(b)}=${safeEncode(v)}&${k}${b}=1`),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "%",
        "%zz",
        "=",
        "&&&",
        "limit=%",
        "filter=%E0%A4%A",
        "a=%ED%A0%80",
        "limit=1&limit=2",
        "__proto__[x]=1",
      ),
    },
    { weight: 1, arbitrary: printable.map((s) => s.replace(/#/g, "")) },
  );
const queryString = () =>
  fc.array(queryPart(), { maxLength: 5 }).map((parts) => (parts.length ? `?${parts.join("&")}` : ""));

const safeHeaderText = printable;
function authHeader(op: Operation): fc.Arbitrary<Record<string, string>> {
  const keys = fc.oneof(
    { weight: 8, arbitrary: fc.constant(`Bearer ${testKey}`) },
    { weight: liveKey ? 3 : 0, arbitrary: fc.constant(`Bearer ${liveKey ?? testKey}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "",
        "Bearer",
        "Bearer ",
        "Basic Zm9vOmJhcg==",
        `bearer ${testKey}`,
        `Bearer ${testKey} x`,
        "Bearer sk.test.",
        "Bearer sk.live.x",
      ),
    },
    { weight: 1, arbitrary: safeHeaderText.map((s) => `Bearer ${s}`) },
  );
  const operator = op.admin
    ? fc.oneof({ weight: 5, arbitrary: fc.constant(OPERATOR_TOKEN) }, { weight: 1, arbitrary: safeHeaderText })
    : fc.constant(undefined);
  return fc.tuple(keys, operator).map(([authorization, token]) => ({
    ...(authorization ? { authorization } : {}),
    ...(token !== undefined ? { "x-operator-token": token } : {}),
  }));
}

const extraHeaders = fc.dictionary(
  fc.constantFrom(
    "x-request-id",
    "idempotency-key",
    "accept",
    "accept-encoding",
    "x-business-id",
    "x-mode",
    "x-internal-token",
    "x-key-id",
    "x-forwarded-for",
    "transfer-encoding-x",
    "expect-x",
  ),
  safeHeaderText,
  { maxKeys: 2 },
);
const contentType = fc.oneof(
  { weight: 10, arbitrary: fc.constant("application/json") },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      undefined,
      "",
      "application/json; charset=utf-8",
      "application/json; charset=utf-16",
      "application/json; charset=latin1",
      "application/json; charset=x-unknown",
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/merge-patch+json",
      "APPLICATION/JSON",
      "application/json, text/plain",
      "*/*",
    ),
  },
);
/** Content-Encoding: claimed but not applied, applied for real, or a compression bomb. */
const encoding = fc.oneof(
  { weight: 12, arbitrary: fc.constant({ header: undefined, apply: undefined as undefined | "gzip" | "deflate" }) },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom("gzip", "deflate", "br", "identity", "gzip, gzip", "x-unknown", "GZIP", "compress", "")
      .map((header) => ({ header, apply: undefined })),
  },
  { weight: 1, arbitrary: fc.constantFrom("gzip" as const, "deflate" as const).map((e) => ({ header: e, apply: e })) },
);
const BOMB = gzipSync(Buffer.alloc(50_000_000, 0x20)).toString("base64");

/** Bodies that are not the schema's JSON at all. */
const rawBody: fc.Arbitrary<FuzzRequest["body"]> = fc.oneof(
  fc.constantFrom(
    "",
    "{not json",
    "null",
    "[]",
    "123",
    '"text"',
    "true",
    "{",
    "}",
    "{}{}",
    '{"a":}',
    "\u0000",
    "\ufeff{}",
    "NaN",
    "-0",
    "1e999",
    "[".repeat(100_000),
    "[".repeat(5_000) + "]".repeat(5_000),
    '{"a":'.repeat(1_000) + "1" + "}".repeat(1_000),
    JSON.stringify({ name: "x".repeat(2_000_000) }),
    JSON.stringify(Array.from({ length: 50_000 }, () => ({}))),
    JSON.stringify(Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i]))),
    '{"name":"\\ud800\\u0000"}',
  ),
  fc.string({ maxLength: 200 }),
  fc.string({ unit: "binary", maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => ({ base64: Buffer.from(bytes).toString("base64") })),
  fc.constantFrom(
    { base64: Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]).toString("base64") },
    { base64: Buffer.from('{"name":"\xc3\x28"}', "latin1").toString("base64") },
  ),
  fc.constant({ base64: BOMB }),
);

function pathArb(op: Operation): fc.Arbitrary<string> {
  const parts = op.path.split("/");
  const arbs = parts.map((part, i) =>
    part === "{id}" ? idArb(parts[i - 1] ?? "", op.method === "DELETE") : fc.constant(part),
  );
  return fc.tuple(...arbs).map((segments) => segments.join("/"));
}

// No DELETE: it would end the seeded card for the rest of the run (the DELETE routes are fuzzed as themselves).
const METHODS_ELSEWHERE = ["GET", "POST", "PUT", "PATCH", "OPTIONS", "HEAD"];

/** A request to one route: its schema's body (valid or mutated), its ids, a key, headers; list routes get a query. */
function schemaRequest(op: Operation, opts: { raw: boolean; query: boolean }): fc.Arbitrary<FuzzRequest> {
  const hasBody = op.method !== "GET" && op.method !== "DELETE";
  const body: fc.Arbitrary<FuzzRequest["body"]> = opts.raw
    ? rawBody
    : hasBody
      ? bodyFor(op).map(toJsonText)
      : fc.oneof(
          { weight: 6, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: bodyFor(op).map(toJsonText) },
        );
  const query =
    opts.query || op.list
      ? fc.oneof({ weight: opts.query ? 0 : 2, arbitrary: fc.constant("") }, { weight: 3, arbitrary: queryString() })
      : fc.constant("");
  const method = fc.oneof(
    { weight: 15, arbitrary: fc.constant(op.method) },
    { weight: 1, arbitrary: fc.constantFrom(...METHODS_ELSEWHERE) },
  );
  return fc
    .record({
      method,
      path: pathArb(op),
      query,
      body,
      auth: authHeader(op),
      extra: extraHeaders,
      type: contentType,
      enc: encoding,
    })
    .map(({ method, path, query, body, auth, extra, type, enc }) => {
      let sentBody = body;
      if (enc.apply && sentBody !== undefined) {
        const bytes = bodyBytes(sentBody)!;
        sentBody = { base64: (enc.apply === "gzip" ? gzipSync(bytes) : deflateSync(bytes)).toString("base64") };
      }
      const headers: Record<string, string> = { ...extra, ...auth };
      if (type !== undefined) headers["content-type"] = type;
      if (enc.header !== undefined) headers["content-encoding"] = enc.header;
      return {
        method,
        path: path + query,
        headers,
        ...(sentBody !== undefined && method !== "HEAD" ? { body: sentBody } : {}),
      };
    });
}

function anyRoute(opts: { raw: boolean; query: boolean; listsOnly?: boolean }): fc.Arbitrary<FuzzRequest> {
  const chosen = operations.filter((op) => !opts.listsOnly || op.list);
  return fc.oneof(...chosen.map((op) => schemaRequest(op, opts)));
}

function runs(share: number): number {
  return Math.max(1, Math.round(TOTAL_RUNS * share));
}
const params = (share: number): fc.Parameters<[FuzzRequest]> => ({
  numRuns: runs(share),
  ...(SEED !== undefined ? { seed: SEED } : {}),
});
const timeout = (share: number) => 60_000 + runs(share) * 50;

// ---------------------------------------------------------------------------------------------------------------

describe("fuzzing every public route", () => {
  it("derives the routes from the gateway's OpenAPI document", () => {
    expect(operations.length).toBeGreaterThan(40);
    expect(operations.some((op) => op.path === "/customers" && op.method === "POST" && op.bodySchema)).toBe(true);
    expect(operations.filter((op) => op.list).length).toBeGreaterThan(5);
    expect(realIds.size).toBeGreaterThan(4);
  });

  it("answers schema-derived and mutated bodies below 500", { timeout: timeout(0.55) }, async () => {
    await fc.assert(fc.asyncProperty(anyRoute({ raw: false, query: false }), answersBelow500), params(0.55));
  });

  it("answers raw junk bodies, odd content types and encodings below 500", { timeout: timeout(0.2) }, async () => {
    await fc.assert(fc.asyncProperty(anyRoute({ raw: true, query: false }), answersBelow500), params(0.2));
  });

  it("answers garbage list queries below 500", { timeout: timeout(0.25) }, async () => {
    await fc.assert(
      fc.asyncProperty(anyRoute({ raw: false, query: true, listsOnly: true }), answersBelow500),
      params(0.25),
    );
  });

  it("is alive and answering at the end", async () => {
    expect(await healthLine()).toBe("healthy");
    const list = await api("GET", "/customers?limit=1");
    expect(list.status).toBe(200);
  });
});
