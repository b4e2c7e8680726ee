import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually";
import { TOPICS } from "@cardhold/contracts";
import { startAllInOne, type AllInOne } from "./all-in-one";
import { callGateway, type GatewayCall } from "../../../test/support/api-client";
import { sampleOf, scrape } from "../../../test/support/metrics-scrape";

const OPERATOR_TOKEN = "operator-token-for-tests-0123";
let platform: AllInOne;

beforeAll(async () => {
  platform = await startAllInOne({ port: 0, logLevel: "silent", operatorToken: OPERATOR_TOKEN });
});
afterAll(async () => {
  await platform?.stop();
});

const call = (method: string, path: string, opts: GatewayCall = {}) => callGateway(platform.url, method, path, opts);

const fixture = async () =>
  JSON.parse(await readFile(new URL("../../../test/fixtures/customer-create-response.json", import.meta.url), "utf8"))
    .data;

async function customerBody(reference: string) {
  const record = await fixture();
  return {
    name: record.name,
    reference,
    type: record.type,
    claims: record.claims,
    verifications: ["tier-2"],
    metadata: record.metadata,
  };
}

async function newBusiness(name = "Acme") {
  const res = await call("POST", "/admin/businesses", {
    headers: { "x-operator-token": OPERATOR_TOKEN },
    body: { name, webhookUrl: "http://127.0.0.1:4000/hook" },
  });
  expect(res.status).toBe(201);
  return res.body.data as { business: { id: string }; testKey: string };
}

describe("gateway", () => {
  it("answers health, readiness, the OpenAPI document and the docs page without a key; metrics to the operator only", async () => {
    expect((await call("GET", "/health")).body).toMatchObject({ status: "ok" });
    expect((await call("GET", "/ready")).body).toMatchObject({ status: "ready" });
    expect((await call("GET", "/metrics")).status).toBe(401);
    expect((await call("GET", "/metrics", { key: platform.defaultBusiness.testKey })).status).toBe(401);
    expect((await call("GET", "/metrics", { headers: { "x-operator-token": OPERATOR_TOKEN } })).body).toContain(
      "http_requests_total",
    );
    const doc = (await call("GET", "/openapi.json")).body;
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.paths["/customers"].post.requestBody).toBeDefined();
    expect(doc.paths["/webhooks/{id}/secret/roll"].post).toBeDefined();
    expect(doc.paths["/events/{id}/retry"].post).toBeDefined();
    expect(doc.paths["/cards"].post.requestBody.content["application/json"].schema.required).toEqual([
      "program",
      "customer",
      "reference",
    ]);
    expect(doc.paths["/simulation/cards/{id}/request-authorization/capture"].post).toBeDefined();
    expect(doc.paths["/payments/bill"].post.requestBody.content["application/json"].schema.required).toEqual([
      "product",
      "inputs",
    ]);
    expect((await call("GET", "/docs")).body).toContain("/customers");
  });

  it("refuses a missing, malformed or unknown key with 401", async () => {
    for (const key of [undefined, "nope", "sk.test.123456789ABCDEFGHJKLMNPQRSTUVWXYZabc"]) {
      const res = await call("GET", "/customers", { key });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ statusCode: 401, code: "unauthorized" });
    }
  });

  it("guards the admin endpoint with the operator token", async () => {
    const res = await call("POST", "/admin/businesses", {
      headers: { "x-operator-token": "wrong-token-wrong-token" },
      body: {},
    });
    expect(res.status).toBe(401);
    const bad = await call("POST", "/admin/businesses", {
      headers: { "x-operator-token": OPERATOR_TOKEN },
      body: { name: "" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["name", "webhookUrl"]);
  });

  it("services refuse requests that do not come through the gateway", async () => {
    const res = await fetch(platform.upstreams["customer-service"] + "/customers", {
      headers: { "x-business-id": "bus.x", "x-mode": "test" },
    });
    expect(res.status).toBe(401);
  });

  it("hands requests to the services in process: a client's internal headers never reach them, the request log keeps the answer", async () => {
    const other = await newBusiness("Forger Target");
    const { testKey } = platform.defaultBusiness;
    const forged = {
      "x-business-id": other.business.id,
      "x-mode": "live",
      "x-internal-token": "forged",
      "x-key-id": "key.forged",
    };
    const created = await call("POST", "/customers", {
      key: testKey,
      headers: forged,
      body: await customerBody("in-process-1"),
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    expect((await call("GET", `/customers/${id}`, { key: testKey })).status).toBe(200);
    expect((await call("GET", `/customers/${id}`, { key: other.testKey })).status).toBe(404);

    const logs = await call("GET", "/logs?limit=5", { key: testKey });
    const logged = logs.body.data.find(
      (l: { path: string; method: string }) => l.method === "POST" && l.path === "/customers",
    );
    expect(logged).toMatchObject({ status: 201, responseBody: { data: { id, reference: "in-process-1" } } });
  });

  it("answers 404 for unknown paths, 400 for bad JSON and 413 for a body over the limit", async () => {
    const { testKey } = platform.defaultBusiness;
    expect((await call("GET", "/nowhere", { key: testKey })).status).toBe(404);
    const badJson = await call("POST", "/customers", { key: testKey, raw: "{not json" });
    expect(badJson.status).toBe(400);
    expect(badJson.body.code).toBe("invalid-json");
    const huge = await call("POST", "/customers", {
      key: testKey,
      raw: JSON.stringify({ name: "x".repeat(2_000_000) }),
    });
    expect(huge.status).toBe(413);
  });

  it("answers 404 for unknown customer and webhook ids at once, also 200 in parallel", async () => {
    const { testKey } = platform.defaultBusiness;
    const started = Date.now();
    const unknown = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        call("POST", "/card-programs", {
          key: testKey,
          body: {
            name: "P",
            network: "verve",
            type: "virtual",
            currency: "NGN",
            authorization: { webhook: `wh.1111111111111111${(i % 9) + 1}` },
          },
        }),
      ),
    );
    expect(new Set(unknown.map((r) => r.status))).toEqual(new Set([404]));
    const account = await call("POST", "/accounts", {
      key: testKey,
      body: { type: "customer", customer: "cus.11111111111111111", currency: "NGN", name: "x" },
    });
    expect([400, 404]).toContain(account.status);
    expect(Date.now() - started).toBeLessThan(2_500); // each used to wait 3 s for a projection
  });

  it("announces a new business's signing key sealed: never plain in what the gateway's outbox publishes", async () => {
    const given = "given-signing-key-0123456789abcdef";
    // What the bus carries is the outbox row as written; the row itself is deleted soon after it is published.
    const announced: Array<{ key: string | null; value: string }> = [];
    await platform.bus.subscribe({
      group: "test.business-announcements",
      topics: [TOPICS.businesses],
      handler: async (m) => void announced.push({ key: m.key, value: JSON.stringify(m.value) }),
    });
    const created = await call("POST", "/admin/businesses", {
      headers: { "x-operator-token": OPERATOR_TOKEN },
      body: { name: "Sealed Ltd", webhookUrl: "http://127.0.0.1:4000/hook", signingKey: given },
    });
    expect(created.status).toBe(201);
    const mine = await eventually(() => {
      const found = announced.filter((m) => m.key === created.body.data.business.id);
      expect(found).toHaveLength(1);
      return found[0]!;
    });
    expect(mine.value).not.toContain(given);
    expect(mine.value).toContain("sealedSigningKey");
  });

  it("answers 400 to an absolute-form request line", async () => {
    const { request } = await import("node:http");
    const status = await new Promise<number>((resolve, reject) => {
      const target = new URL(platform.url);
      const req = request(
        { host: target.hostname, port: target.port, method: "GET", path: "http://example.test/customers" },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(400);
  });

  it("refuses a body nested 6,000 levels deep with 400 and keeps serving every tenant", async () => {
    const { testKey } = platform.defaultBusiness;
    const deep = `{"name":${"[".repeat(6_000)}${"]".repeat(6_000)}}`;
    const refused = await call("POST", "/customers", { key: testKey, raw: deep });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/deeper than the limit of 32 levels/);
    await new Promise((resolve) => setTimeout(resolve, 50)); // the request log is written after the answer
    expect((await call("GET", "/customers?limit=1", { key: testKey })).status).toBe(200);
  });
});

describe("customers through the gateway", () => {
  it("creates a customer exactly as the original interface shows it", async () => {
    const { testKey } = platform.defaultBusiness;
    const body = await customerBody("ref-create-1");
    (body.claims as any).individualIdentity.url = "https://docs.example/id.png";
    const res = await call("POST", "/customers", { key: testKey, body });
    expect(res.status).toBe(201);
    const expected = await fixture();
    const { id, createdAt, updatedAt, ...rest } = res.body.data;
    expect(res.body.code).toBe("success");
    expect(id).toMatch(/^cus\.[1-9A-HJ-NP-Za-km-z]{17}$/);
    expect(createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(updatedAt).toBe(createdAt);
    expect(rest).toEqual({
      ...expected,
      id: undefined,
      createdAt: undefined,
      updatedAt: undefined,
      reference: "ref-create-1",
    });
    expect(res.body.data.claims.individualIdentity).not.toHaveProperty("url");
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  it("lists every bad field of an invalid customer", async () => {
    const res = await call("POST", "/customers", {
      key: platform.defaultBusiness.testKey,
      body: { name: "x", type: "robot", verifications: "tier-1" },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(
      ["claims", "metadata", "reference", "type", "verifications"].sort(),
    );
  });

  it("answers 409 when the business already used the reference, but another business may use it", async () => {
    const { testKey } = platform.defaultBusiness;
    expect((await call("POST", "/customers", { key: testKey, body: await customerBody("dup-1") })).status).toBe(201);
    const again = await call("POST", "/customers", { key: testKey, body: await customerBody("dup-1") });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("conflict");
    const other = await newBusiness("Other");
    expect((await call("POST", "/customers", { key: other.testKey, body: await customerBody("dup-1") })).status).toBe(
      201,
    );
  });

  it("gets and updates a customer, and hides it from other businesses", async () => {
    const { testKey } = platform.defaultBusiness;
    const created = (await call("POST", "/customers", { key: testKey, body: await customerBody("upd-1") })).body.data;
    expect((await call("GET", `/customers/${created.id}`, { key: testKey })).body.data).toEqual(created);
    const update = { ...(await customerBody("upd-1b")), name: "New Name", verifications: ["tier-3"] };
    const updated = (await call("PUT", `/customers/${created.id}`, { key: testKey, body: update })).body.data;
    expect(updated).toMatchObject({
      id: created.id,
      name: "New Name",
      reference: "upd-1b",
      createdAt: created.createdAt,
    });
    expect(updated.verifications).toEqual([{ type: "tier-3", status: "verified" }]);
    expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
    const other = await newBusiness("Snoop");
    const snooped = await call("GET", `/customers/${created.id}`, { key: other.testKey });
    expect(snooped.status).toBe(404);
    expect((await call("PUT", `/customers/${created.id}`, { key: other.testKey, body: update })).status).toBe(404);
    expect((await call("GET", "/customers/cus.unknown", { key: testKey })).status).toBe(404);
  });

  it("lists newest first with limit, after and before", async () => {
    const { testKey } = await newBusiness("Lister");
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(
        (await call("POST", "/customers", { key: testKey, body: await customerBody(`list-${i}`) })).body.data.id,
      );
    }
    const newestFirst = [...ids].reverse();
    const first = await call("GET", "/customers?limit=2", { key: testKey });
    expect(first.body.code).toBe("success");
    expect(first.body.data.map((c: { id: string }) => c.id)).toEqual(newestFirst.slice(0, 2));
    expect(first.body.metadata).toEqual({ hasMore: true });
    const next = await call("GET", `/customers?limit=2&after=${newestFirst[1]}`, { key: testKey });
    expect(next.body.data.map((c: { id: string }) => c.id)).toEqual(newestFirst.slice(2, 4));
    const back = await call("GET", `/customers?limit=2&before=${newestFirst[2]}`, { key: testKey });
    expect(back.body.data.map((c: { id: string }) => c.id)).toEqual(newestFirst.slice(0, 2));
    const all = await call("GET", "/customers?countTotal", { key: testKey });
    expect(all.body.metadata).toEqual({ hasMore: false, totalCount: 5 });
    // After the last one: an empty page. After an id that is not one of this business's customers: 400.
    const end = await call("GET", `/customers?after=${newestFirst[4]}`, { key: testKey });
    expect(end.status).toBe(200);
    expect(end.body).toMatchObject({ data: [], metadata: { hasMore: false } });
    const elsewhere = (
      await call("POST", "/customers", {
        key: (await newBusiness("Elsewhere")).testKey,
        body: await customerBody("list-x"),
      })
    ).body.data.id;
    for (const cursor of [elsewhere, "cus.11pAZ38aSVwFAgRs9"]) {
      for (const direction of ["after", "before"]) {
        const unknown = await call("GET", `/customers?${direction}=${cursor}`, { key: testKey });
        expect(unknown.status).toBe(400);
        expect(unknown.body.code).toBe("invalid-query");
      }
    }
  });

  it("publishes each change on customers.v1: other services' projections follow", async () => {
    const { testKey } = platform.defaultBusiness;
    const created = (await call("POST", "/customers", { key: testKey, body: await customerBody("proj-1") })).body.data;
    await call("PUT", `/customers/${created.id}`, {
      key: testKey,
      body: { ...(await customerBody("proj-1")), name: "Renamed" },
    });
    for (const schema of ["engine", "bills"]) {
      await eventually(async () => {
        const { rows } = await platform.db.query(`SELECT name, status FROM ${schema}.customers WHERE id = $1`, [
          created.id,
        ]);
        expect(rows).toEqual([{ name: "Renamed", status: "active" }]);
      });
    }
  });

  it("gives every new business a default webhook that reaches the dispatcher's routing table", async () => {
    const { business } = await newBusiness("Hooked");
    await eventually(async () => {
      const { rows } = await platform.db.query(
        "SELECT mode, url, is_default FROM dispatcher.webhooks WHERE business_id = $1 ORDER BY mode",
        [business.id],
      );
      expect(rows).toEqual([
        { mode: "live", url: "http://127.0.0.1:4000/hook", is_default: true },
        { mode: "test", url: "http://127.0.0.1:4000/hook", is_default: true },
      ]);
    });
  });
});

describe("queue metrics of every service in the process", () => {
  it("each service's /metrics shows its outbox, and only its own consumer groups' lag", async () => {
    await newBusiness("Metrics");
    await platform.drained();
    const gateway = await scrape(platform.url, { "x-operator-token": OPERATOR_TOKEN });
    expect(sampleOf(gateway, "outbox_backlog_messages")).toBeGreaterThanOrEqual(0);
    for (const [service, url] of Object.entries(platform.upstreams)) {
      const samples = await scrape(url);
      expect(sampleOf(samples, "outbox_backlog_messages"), service).toBeGreaterThanOrEqual(0);
      expect(sampleOf(samples, "outbox_oldest_message_age_seconds"), service).toBeLessThan(60);
      const lags = samples.filter((s) => s.name === "consumer_lag_messages");
      if (service === "customer-service") expect(lags).toEqual([]);
      else expect(lags.length, service).toBeGreaterThan(0);
      for (const lag of lags)
        expect(lag.labels.group === service || lag.labels.group!.startsWith(`${service}.`), lag.labels.group).toBe(
          true,
        );
    }
    const dispatcher = await scrape(platform.upstreams["event-dispatcher"]!);
    expect(sampleOf(dispatcher, "deliveries_due", { policy: "decision" })).toBeGreaterThanOrEqual(0);
    const engine = await scrape(platform.upstreams["authorization-engine"]!);
    expect(sampleOf(engine, "authorizations_awaiting_answer")).toBeGreaterThanOrEqual(0);
    expect(engine.some((s) => s.name === "authorization_decision_lateness_seconds_count")).toBe(true);
  });
});
