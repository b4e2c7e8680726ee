import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEY_CACHE_MS } from "../src/api-keys";
import { gatewayCaller, newBusiness as newBusinessVia, OPERATOR, startHarness, type Harness } from "./harness";

let h: Harness;
let gatewayA: string;
let gatewayB: string;

beforeAll(async () => {
  h = await startHarness();
  gatewayA = h.gateways[0].url;
  gatewayB = h.gateways[1].url;
});
afterAll(async () => {
  await h?.stop();
});

const operator = { "x-operator-token": OPERATOR };

const call = gatewayCaller(() => h);

const newBusiness = (name: string) => newBusinessVia(h, name);

interface CreatedKey {
  id: string;
  key: string;
  mode: string;
  name: string | null;
  permissions: string[] | null;
}

async function createKey(businessId: string, body: unknown): Promise<CreatedKey> {
  const res = await call("POST", `/admin/businesses/${businessId}/keys`, { headers: operator, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as CreatedKey;
}

const listKeys = (businessId: string) => call("GET", `/admin/businesses/${businessId}/keys`, { headers: operator });

async function waitFor<T>(check: () => Promise<T>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** Polls a gateway until the key answers 401 (it must answer 200 until then); how long after `since` that was. */
async function msUntilRefused(key: string, gateway: string, since: number): Promise<number> {
  for (;;) {
    const res = await call("GET", "/customers?limit=1", { key, gateway });
    if (res.status === 401) {
      expect(res.body).toMatchObject({ statusCode: 401, code: "unauthorized" });
      return Date.now() - since;
    }
    expect(res.status).toBe(200);
    if (Date.now() - since > 5_000) throw new Error("the revoked key still works after 5 s");
    await new Promise((r) => setTimeout(r, 25));
  }
}

const keyLookups = () => h.statements.filter((sql) => sql.includes("WHERE key_hash = $1")).length;
const lastUsedWrites = () => h.statements.filter((sql) => sql.includes("SET last_used_at")).length;

describe("the admin key API", () => {
  it("creates a key with its secret shown once; the list shows lastUsedAt once used and never the secret or hash", async () => {
    const { business, testKey } = await newBusiness("List");
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
    expect((await createKey(business.id, { mode: "live" })).key).toMatch(/^sk\.live\./);

    const before = await listKeys(business.id);
    expect(before.status).toBe(200);
    expect(before.body.data.map((k: { mode: string }) => k.mode)).toEqual(["live", "test", "test"]); // newest first
    expect(before.body.data[1]).toMatchObject({ id: created.id, lastUsedAt: null });

    expect((await call("GET", "/customers", { key: created.key })).status).toBe(200);
    const listed = await waitFor(async () => {
      const data = (await listKeys(business.id)).body.data as Array<Record<string, unknown>>;
      const mine = data.find((k) => k.id === created.id)!;
      expect(mine.lastUsedAt).not.toBeNull();
      return data;
    }, 3_000);
    const text = JSON.stringify(listed);
    expect(text).not.toContain(created.key);
    expect(text).not.toContain(testKey);
    expect(text).not.toMatch(/"[^"]*hash[^"]*":/i); // no field named for a hash (an id may spell it)
    for (const key of listed) {
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

  it("answers 400 listing every bad field, 401 without the operator token", async () => {
    const { business } = await newBusiness("Input");
    const path = `/admin/businesses/${business.id}/keys`;
    expect((await call("GET", path)).status).toBe(401);
    expect(
      (await call("POST", path, { headers: { "x-operator-token": "wrong-token-wrong-token" }, body: { mode: "test" } }))
        .status,
    ).toBe(401);
    expect((await call("DELETE", `${path}/key.x`)).status).toBe(401);
    const cases: Array<[unknown, string[]]> = [
      [{}, ["mode"]],
      [{ mode: "prod" }, ["mode"]],
      [{ mode: "test", permissions: [] }, ["permissions"]],
      [{ mode: "test", permissions: ["read", "admin"] }, ["permissions[1]"]],
      [{ mode: "test", permissions: ["read", "read"] }, ["permissions"]],
      [{ mode: "test", permissions: "read" }, ["permissions"]],
      [{ mode: "test", name: " " }, ["name"]],
      [{ mode: "test", permission: ["read"] }, ["(body)"]], // a misspelling must not make a full-access key
      [[], ["(body)"]],
    ];
    for (const [body, paths] of cases) {
      const res = await call("POST", path, { headers: operator, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe("invalid-request");
      expect(
        res.body.errors.map((e: { path: string }) => e.path),
        JSON.stringify(body),
      ).toEqual(paths);
    }
    expect((await listKeys(business.id)).body.data).toHaveLength(1);
  });

  it("answers 404 for another business's key, an unknown key and an unknown business", async () => {
    const a = await newBusiness("A");
    const b = await newBusiness("B");
    const { id, key } = await createKey(b.business.id, { mode: "test" });
    const res = await call("DELETE", `/admin/businesses/${a.business.id}/keys/${id}`, { headers: operator });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ statusCode: 404, code: "not-found" });
    expect((await call("GET", "/customers", { key })).status).toBe(200); // untouched
    expect((await listKeys(b.business.id)).body.data.find((k: { id: string }) => k.id === id).revokedAt).toBeNull();
    expect(
      (await call("DELETE", `/admin/businesses/${a.business.id}/keys/key.unknown`, { headers: operator })).status,
    ).toBe(404);
    expect((await listKeys("bus.unknown")).status).toBe(404);
    expect(
      (await call("POST", "/admin/businesses/bus.unknown/keys", { headers: operator, body: { mode: "test" } })).status,
    ).toBe(404);
    expect((await call("DELETE", `/admin/businesses/bus.unknown/keys/${id}`, { headers: operator })).status).toBe(404);
  });
});

describe("revocation", () => {
  it("revoking through one gateway: 401 there at once, on the other gateway within a second; idempotent", async () => {
    const { business } = await newBusiness("Revoke");
    const { id, key } = await createKey(business.id, { mode: "live" });
    // Both gateways have the key cached.
    expect((await call("GET", "/customers", { key, gateway: gatewayA })).status).toBe(200);
    expect((await call("GET", "/customers", { key, gateway: gatewayB })).status).toBe(200);

    const started = Date.now();
    const revoked = await call("DELETE", `/admin/businesses/${business.id}/keys/${id}`, {
      headers: operator,
      gateway: gatewayA,
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toMatchObject({ id, revokedAt: expect.any(String) });
    expect((await call("GET", "/customers", { key, gateway: gatewayA })).status).toBe(401);
    expect(await msUntilRefused(key, gatewayB, started)).toBeLessThan(1_500);

    const again = await call("DELETE", `/admin/businesses/${business.id}/keys/${id}`, {
      headers: operator,
      gateway: gatewayB,
    });
    expect(again.status).toBe(200);
    expect(again.body.data.revokedAt).toBe(revoked.body.data.revokedAt);
    const listed = (await listKeys(business.id)).body.data.find((k: { id: string }) => k.id === id);
    expect(listed.revokedAt).toBe(revoked.body.data.revokedAt);
  });

  it("a key revoked or deleted in the database stops working on every gateway within a second", async () => {
    const { business } = await newBusiness("Behind");
    const revokedKey = await createKey(business.id, { mode: "test" });
    const deletedKey = await createKey(business.id, { mode: "test" });
    for (const { key } of [revokedKey, deletedKey]) {
      for (const gateway of [gatewayA, gatewayB])
        expect((await call("GET", "/customers", { key, gateway })).status).toBe(200);
    }
    const started = Date.now();
    await h.pg.db.query("UPDATE gateway.api_keys SET revoked_at = now() WHERE id = $1", [revokedKey.id]);
    await h.pg.db.query("DELETE FROM gateway.api_keys WHERE id = $1", [deletedKey.id]);
    const times = await Promise.all(
      [revokedKey, deletedKey].flatMap(({ key }) =>
        [gatewayA, gatewayB].map((gateway) => msUntilRefused(key, gateway, started)),
      ),
    );
    for (const ms of times) expect(ms).toBeLessThan(1_500);
  });

  it("keeps the hot path cheap: a cached key costs no query, and lastUsedAt is not a write per request", async () => {
    const { business } = await newBusiness("Hot path");
    const { key } = await createKey(business.id, { mode: "test" });
    const lookups = keyLookups();
    const writes = lastUsedWrites();
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 20 }, () => call("GET", "/customers", { key })));
    for (let i = 0; i < 20; i++) answers.push(await call("GET", "/customers", { key }));
    const elapsed = Date.now() - started;
    expect(answers.every((a) => a.status === 200)).toBe(true);
    // One lookup per cache period (the 20 concurrent first requests share one), and one lastUsedAt write.
    expect(keyLookups() - lookups).toBeLessThanOrEqual(1 + Math.floor(elapsed / KEY_CACHE_MS));
    await new Promise((r) => setTimeout(r, 50));
    expect(lastUsedWrites() - writes).toBe(1);
  });
});

describe("restricted keys", () => {
  let businessId: string;
  let fullKey: string;

  beforeAll(async () => {
    const created = await newBusiness("Restricted");
    businessId = created.business.id;
    fullKey = created.testKey;
  });

  const reached = (url: string, method = "GET") => h.forwarded.some((f) => f.url === url && f.method === method);

  it("a read-only key reads everywhere but gets 403 naming the permission on writes and on card secrets", async () => {
    const { key, permissions } = await createKey(businessId, {
      mode: "test",
      name: "dashboard",
      permissions: ["read"],
    });
    expect(permissions).toEqual(["read"]);
    expect((await call("GET", "/customers?limit=1", { key })).status).toBe(200);
    expect((await call("GET", "/cards/c.read-only", { key })).status).toBe(200);
    expect((await call("GET", "/logs", { key })).status).toBe(200);

    for (const method of ["POST", "PATCH", "DELETE"]) {
      const res = await call(method, "/customers/cus.read-only", {
        key,
        body: method === "DELETE" ? undefined : { name: "x" },
      });
      expect(res.status, method).toBe(403);
      expect(res.body).toMatchObject({ statusCode: 403, code: "forbidden" });
      expect(res.body.message).toContain("'write' permission");
      expect(reached("/customers/cus.read-only", method)).toBe(false);
    }
    for (const path of [
      "/cards/c.ro/secrets",
      "/cards/c.ro/secrets/",
      "/cards/c.ro/SECRETS",
      "/cards/c.ro/%73ecrets",
      "/cards/c.ro/secrets?x=1",
    ]) {
      const res = await call("GET", path, { key });
      expect(res.status, path).toBe(403);
      expect(res.body.message).toContain("'card-secrets' permission");
      expect(JSON.stringify(res.body)).not.toContain("5061000000000001");
    }
    expect(h.forwarded.some((f) => f.url.startsWith("/cards/c.ro/"))).toBe(false);
    // Refusals are in the request log like any other answer, with the key that was refused.
    const { id } = (await listKeys(businessId)).body.data.find((k: { name: string | null }) => k.name === "dashboard");
    await waitFor(async () => {
      const logs = await call("GET", `/logs?filter=apiKey:${id}&limit=50`, { key: fullKey });
      expect(logs.status).toBe(200);
      expect(logs.body.data.filter((l: { status: number }) => l.status === 403)).toHaveLength(8);
    }, 3_000);
  });

  it("a card-secrets key reads card secrets and nothing else", async () => {
    const { key } = await createKey(businessId, { mode: "live", permissions: ["card-secrets"] });
    const secrets = await call("GET", "/cards/c.secret/secrets", { key });
    expect(secrets.status).toBe(200);
    expect(secrets.body.data).toEqual({ pan: "5061000000000001", cvv: "123" });
    const other = await call("GET", "/cards/c.secret", { key });
    expect(other.status).toBe(403);
    expect(other.body.message).toContain("'read' permission");
    expect((await call("POST", "/cards", { key, body: {} })).status).toBe(403);
  });

  it("a read-and-write key writes; full-access keys, old and new, do everything", async () => {
    const { key } = await createKey(businessId, { mode: "test", permissions: ["write", "read"] });
    expect((await call("POST", "/customers", { key, body: { name: "x" } })).status).toBe(201);
    expect((await call("GET", "/cards/c.rw/secrets", { key })).status).toBe(403);

    // A key as made before restricted keys existed: permissions NULL.
    const legacy = (await listKeys(businessId)).body.data.find(
      (k: { permissions: unknown; name: unknown }) => k.name === null && k.permissions === null,
    );
    expect(legacy).toBeDefined();
    const fresh = await createKey(businessId, { mode: "test" });
    for (const k of [fullKey, fresh.key]) {
      expect((await call("GET", "/cards/c.full/secrets", { key: k })).status).toBe(200);
      expect((await call("POST", "/customers", { key: k, body: { name: "x" } })).status).toBe(201);
      expect((await call("GET", "/customers", { key: k })).status).toBe(200);
    }
  });
});
