import { readFile } from "node:fs/promises";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventMessage } from "../../../test/support/event-message";
import { eventually } from "../../../test/support/eventually";
import { FakeReceiver } from "../../../test/support/fake-receiver";
import { sign } from "../../../services/event-dispatcher/src/domain/signature";
import { startAllInOne, type AllInOne } from "./all-in-one";

/**
 * A full all-in-one flow at the most verbose log level with every log line captured: business, its keys, signing
 * keys read and rolled, a customer, a card and its secrets, a signed delivery. Afterwards no API key secret, signing
 * key, PAN or CVV appears anywhere in what was logged.
 */
const OPERATOR = "operator-token-secrets-in-logs";
const logged: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logged.push(chunk.toString());
    done();
  },
});
const receiver = new FakeReceiver();
let platform: AllInOne;
/** Every secret the flow saw: none may appear in the logs. */
const secrets = new Set<string>();

async function call(method: string, path: string, key: string | undefined, body?: unknown) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (key) headers.authorization = `Bearer ${key}`;
  else headers["x-operator-token"] = OPERATOR;
  const res = await fetch(platform.url + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function customerBody(reference: string) {
  const record = JSON.parse(
    await readFile(new URL("../../../test/fixtures/customer-create-response.json", import.meta.url), "utf8"),
  ).data;
  return {
    name: record.name,
    reference,
    type: record.type,
    claims: record.claims,
    verifications: ["tier-2"],
    metadata: record.metadata,
  };
}

beforeAll(async () => {
  await receiver.start();
  platform = await startAllInOne({ port: 0, logLevel: "trace", operatorToken: OPERATOR, logDestination: sink });
});
afterAll(async () => {
  await receiver.stop();
});

describe("secrets never reach the logs", () => {
  it("runs the flow, then finds no API key, signing key, PAN or CVV in any log line", async () => {
    // A business and its test key; a live key too.
    const created = await call("POST", "/admin/businesses", undefined, { name: "Log probe", webhookUrl: receiver.url });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const businessId: string = created.body.data.business.id;
    const testKey: string = created.body.data.testKey;
    const liveKey: string = (await call("POST", `/admin/businesses/${businessId}/keys`, undefined, { mode: "live" }))
      .body.data.key;
    for (const key of [testKey, liveKey]) {
      expect(key).toMatch(/^sk\.(test|live)\./);
      secrets.add(key);
      secrets.add(key.split(".").slice(2).join("."));
    }

    // The default webhooks' signing keys, read with each mode's key; a webhook of our own, its key rolled.
    const defaults = async (key: string) =>
      (
        await eventually(async () => {
          const list = await call("GET", "/webhooks?filter=isDefault:true", key);
          expect(list.body.data).toHaveLength(1);
          return list.body.data;
        }, 10_000)
      )[0].id as string;
    const testDefault = await defaults(testKey);
    const liveDefault = await defaults(liveKey);
    const signingKey: string = (await call("GET", `/webhooks/${testDefault}/secret`, testKey)).body.data.signingKey;
    secrets.add(signingKey);
    secrets.add((await call("GET", `/webhooks/${liveDefault}/secret`, liveKey)).body.data.signingKey);
    const own = await call("POST", "/webhooks", testKey, {
      name: "own",
      events: ["payment.bill.completed"],
      url: receiver.url,
      signingKey: "log-probe-own-signing-key-01",
    });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    secrets.add("log-probe-own-signing-key-01");
    const rolled = await call("POST", `/webhooks/${own.body.data.id}/secret/roll`, testKey, {
      signingKey: "log-probe-rolled-signing-key-01",
    });
    expect(rolled.status).toBe(200);
    secrets.add("log-probe-rolled-signing-key-01");
    secrets.add((await call("POST", `/webhooks/${own.body.data.id}/secret/roll`, testKey, {})).body.data.signingKey);
    // A refused request carrying a key: its error must not echo it either.
    const refused = await call("POST", "/webhooks", testKey, {
      name: "bad",
      events: ["nope"],
      url: "ftp://x",
      signingKey: "log-probe-refused-key-0123",
    });
    expect(refused.status).toBe(400);
    secrets.add("log-probe-refused-key-0123");

    // A customer, a card program, a card and its secrets.
    const customer = await call("POST", "/customers", testKey, await customerBody("log-probe-1"));
    expect(customer.status, JSON.stringify(customer.body)).toBe(201);
    const program = await call("POST", "/card-programs", testKey, {
      name: "Virtual NGN",
      network: "verve",
      type: "virtual",
      currency: "NGN",
    });
    expect(program.status, JSON.stringify(program.body)).toBe(201);
    const card = await eventually(async () => {
      const res = await call("POST", "/cards", testKey, {
        program: program.body.data.id,
        customer: customer.body.data.id,
        reference: "log-probe-card",
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data as { id: string };
    }, 10_000);
    const cardSecrets = await call("GET", `/cards/${card.id}/secrets`, testKey);
    expect(cardSecrets.status, JSON.stringify(cardSecrets.body)).toBe(200);
    const { pan, cvv } = cardSecrets.body.data as { pan: string; cvv: string };
    expect(pan).toMatch(/^\d{12,19}$/);
    expect(cvv).toMatch(/^\d{3}$/);
    secrets.add(pan);

    // A delivery to the default webhook, signed with the key the API returned.
    const message = eventMessage(businessId, "card.transaction.created", { amount: -100 });
    await platform.bus.publish([message]);
    const got = await eventually(() => {
      expect(receiver.byEvent(message.eventId)).toHaveLength(1);
      return receiver.byEvent(message.eventId)[0]!;
    }, 10_000);
    expect(got.headers["service-signature"]).toBe(sign(got.raw, signingKey));

    await platform.stop();
    const text = logged.join("");
    // The sink saw the run, at the most verbose level.
    expect(logged.length).toBeGreaterThan(10);
    expect(text).toContain('"path":"/webhooks"');
    for (const secret of secrets) expect(text, "a secret reached the logs").not.toContain(secret);
    expect(text).not.toMatch(/sk\.(test|live)\.[A-Za-z0-9_-]{8}/);
    // A CVV is 3 digits, which numbers in logs may contain by chance: look for it as a value, not a substring.
    expect(text).not.toMatch(new RegExp(`"(cvv|value|[a-z]*Cvv)":"?${cvv}"?[,}]`, "i"));
    expect(text).not.toMatch(new RegExp(`[^0-9]${cvv}"`));
  }, 60_000);
});
