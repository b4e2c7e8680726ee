import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually";
import { startAllInOne, type AllInOne } from "./all-in-one";
import { callGateway, type GatewayCall } from "../../../test/support/api-client";

const OPERATOR_TOKEN = "operator-token-for-key-tests-0123";
const operator = { "x-operator-token": OPERATOR_TOKEN };
let platform: AllInOne;

beforeAll(async () => {
  platform = await startAllInOne({ port: 0, logLevel: "silent", operatorToken: OPERATOR_TOKEN });
});
afterAll(async () => {
  await platform?.stop();
});

const call = (method: string, path: string, opts: GatewayCall = {}) => callGateway(platform.url, method, path, opts);

async function newBusiness(name: string) {
  const res = await call("POST", "/admin/businesses", {
    headers: operator,
    body: { name, webhookUrl: "http://127.0.0.1:4000/hook" },
  });
  expect(res.status).toBe(201);
  return res.body.data as { business: { id: string }; testKey: string };
}

async function createKey(businessId: string, body: unknown) {
  const res = await call("POST", `/admin/businesses/${businessId}/keys`, { headers: operator, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; key: string; permissions: string[] | null; name: string | null };
}

const listKeys = async (businessId: string) =>
  call("GET", `/admin/businesses/${businessId}/keys`, { headers: operator });

/** Polls until the key answers 401; returns how long that took. */
async function msUntilRefused(key: string, since: number): Promise<number> {
  for (;;) {
    const res = await call("GET", "/customers?limit=1", { key });
    if (res.status === 401) return Date.now() - since;
    expect(res.status).toBe(200);
    if (Date.now() - since > 5_000) throw new Error("the revoked key still works after 5 s");
    await new Promise((r) => setTimeout(r, 50));
  }
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

// End to end through the real services; the gateway's own suite (services/api-gateway/test/api-keys.component.test.ts)
// covers the rest: two gateway instances, keys revoked in the database, bad input, other businesses' keys, the hot path.
describe("API keys through the admin API", () => {
  it("creates a key (secret shown once), lists it with lastUsedAt once used, never showing the secret or its hash", async () => {
    const { business } = await newBusiness("Keys list");
    const created = await createKey(business.id, { mode: "test", name: "backend" });
    expect(created).toMatchObject({
      object: "apiKey",
      mode: "test",
      name: "backend",
      permissions: null,
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(created.key).toMatch(/^sk\.test\./);

    const before = (await listKeys(business.id)).body.data as Array<Record<string, unknown>>;
    expect(before).toHaveLength(2); // the business's first test key and this one
    expect(before[0]).toMatchObject({ id: created.id, lastUsedAt: null });

    expect((await call("GET", "/customers", { key: created.key })).status).toBe(200);
    const used = await eventually(async () => {
      const res = await listKeys(business.id);
      expect(res.status).toBe(200);
      const mine = res.body.data.find((k: { id: string }) => k.id === created.id);
      expect(mine.lastUsedAt).not.toBeNull();
      return res.body.data as Array<Record<string, unknown>>;
    }, 5_000);
    const text = JSON.stringify(used);
    expect(text).not.toContain(created.key);
    expect(text).not.toMatch(/"[^"]*hash[^"]*":/i); // no field named for a hash (an id may spell it)
    for (const key of used) {
      expect(Object.keys(key).sort()).toEqual([
        "createdAt",
        "delayedRequests",
        "id",
        "last4",
        "lastUsedAt",
        "mode",
        "name",
        "object",
        "permissions",
        "revokedAt",
      ]);
    }
  });

  it("revokes a key: 401 at once on this gateway, idempotent, listed with revokedAt", async () => {
    const { business } = await newBusiness("Keys revoke");
    const { id, key } = await createKey(business.id, { mode: "live" });
    expect((await call("GET", "/customers?limit=1", { key })).status).toBe(200); // cached now
    const started = Date.now();
    const revoked = await call("DELETE", `/admin/businesses/${business.id}/keys/${id}`, { headers: operator });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revokedAt).not.toBeNull();
    expect(await msUntilRefused(key, started)).toBeLessThan(1_500);

    const again = await call("DELETE", `/admin/businesses/${business.id}/keys/${id}`, { headers: operator });
    expect(again.status).toBe(200);
    expect(again.body.data.revokedAt).toBe(revoked.body.data.revokedAt);
    const listed = (await listKeys(business.id)).body.data.find((k: { id: string }) => k.id === id);
    expect(listed.revokedAt).toBe(revoked.body.data.revokedAt);
    expect((await call("GET", "/customers", { key })).body).toMatchObject({ statusCode: 401, code: "unauthorized" });
  });
});

describe("restricted keys", () => {
  let businessId: string;
  let cardId: string;

  beforeAll(async () => {
    const { business, testKey } = await newBusiness("Restricted");
    businessId = business.id;
    const customer = await call("POST", "/customers", { key: testKey, body: await customerBody("restricted-1") });
    expect(customer.status, JSON.stringify(customer.body)).toBe(201);
    const program = await call("POST", "/card-programs", {
      key: testKey,
      body: { name: "Virtual NGN", network: "verve", type: "virtual", currency: "NGN" },
    });
    expect(program.status, JSON.stringify(program.body)).toBe(201);
    const card = await eventually(async () => {
      const res = await call("POST", "/cards", {
        key: testKey,
        body: { program: program.body.data.id, customer: customer.body.data.id, reference: "restricted-card-1" },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data as { id: string };
    }, 10_000);
    cardId = card.id;
  });

  it("a read-only key reads, but gets 403 naming the permission on writes and on card secrets", async () => {
    const { key, permissions } = await createKey(businessId, {
      mode: "test",
      name: "dashboard",
      permissions: ["read"],
    });
    expect(permissions).toEqual(["read"]);
    expect((await call("GET", "/customers", { key })).status).toBe(200);
    expect((await call("GET", `/cards/${cardId}`, { key })).status).toBe(200);
    expect((await call("GET", "/logs", { key })).status).toBe(200);

    const post = await call("POST", "/customers", { key, body: await customerBody("restricted-2") });
    expect(post.status).toBe(403);
    expect(post.body).toMatchObject({ statusCode: 403, code: "forbidden" });
    expect(post.body.message).toContain("'write'");

    for (const path of [
      `/cards/${cardId}/secrets`,
      `/cards/${cardId}/secrets/`,
      `/cards/${cardId}/SECRETS`,
      `/cards/${cardId}/%73ecrets`,
    ]) {
      const secrets = await call("GET", path, { key });
      expect(secrets.status, path).toBe(403);
      expect(secrets.body.message).toContain("'card-secrets'");
      // Only the error's own fields: no card secret rides along. (A pattern over the text would match the
      // random card id, which can hold "cvv" in any case.)
      expect(Object.keys(secrets.body).sort(), path).toEqual(["code", "message", "statusCode"]);
    }
  });

  it("a card-secrets key reads card secrets and nothing else; a full-access key still reads everything", async () => {
    const { key } = await createKey(businessId, { mode: "test", permissions: ["card-secrets"] });
    const secrets = await call("GET", `/cards/${cardId}/secrets`, { key });
    expect(secrets.status, JSON.stringify(secrets.body)).toBe(200);
    expect(secrets.body.data.cvv).toMatch(/^\d{3}$/);
    const other = await call("GET", "/customers", { key });
    expect(other.status).toBe(403);
    expect(other.body.message).toContain("'read'");

    const full = await createKey(businessId, { mode: "test" });
    expect((await call("GET", `/cards/${cardId}/secrets`, { key: full.key })).status).toBe(200);
  });

  it("a read-and-write key writes", async () => {
    const { key } = await createKey(businessId, { mode: "test", permissions: ["read", "write"] });
    expect((await call("POST", "/customers", { key, body: await customerBody("restricted-3") })).status).toBe(201);
  });
});
