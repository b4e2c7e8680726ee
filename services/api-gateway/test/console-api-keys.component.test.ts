import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually";
import { OPERATOR } from "./harness";
import { signIn, startConsoleGateway, type ConsoleGateway } from "./console-support";

let gw: ConsoleGateway;

beforeAll(async () => {
  gw = await startConsoleGateway({ trustProxy: "loopback" });
});
afterAll(async () => {
  await gw?.stop();
});

interface KeyView {
  id: string;
  object: string;
  mode: string;
  name: string | null;
  prefix: string;
  last4: string;
  permissions: string[] | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  secret?: string;
  key?: string;
}

async function operatorKey(businessId: string, body: Record<string, unknown>) {
  const res = await gw.call("POST", `/admin/businesses/${businessId}/keys`, {
    headers: { "x-operator-token": OPERATOR },
    body,
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; key: string };
}

describe("a business's own API keys", () => {
  it("with an Idempotency-Key a retry makes no second key: the first key again, its secret never stored", async () => {
    const { testKey } = await gw.newBusiness("Retrying keys");
    const body = { name: "retried", permissions: ["read"] };
    const headers = { "idempotency-key": "make-reporting-key" };
    const first = await gw.call("POST", "/api-keys", { key: testKey, body, headers });
    const again = await gw.call("POST", "/api-keys", { key: testKey, body, headers });
    expect(first.status).toBe(201);
    expect(first.body.data.secret).toMatch(/^sk\.test\./);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.data).toEqual({ ...first.body.data, secret: null });
    const listed = (await gw.call("GET", "/api-keys?limit=100", { key: testKey })).body.data as KeyView[];
    expect(listed.filter((k) => k.name === "retried")).toHaveLength(1);
    const stored = await gw.pg.db.query("SELECT answer_body, effect FROM gateway.idempotency_keys WHERE key = $1", [
      "make-reporting-key",
    ]);
    expect(JSON.stringify(stored.rows)).not.toContain(first.body.data.secret);
    const otherBody = await gw.call("POST", "/api-keys", { key: testKey, body: { ...body, name: "x" }, headers });
    expect(otherBody.status).toBe(422);
  });

  it("creates a restricted key in the caller's mode, its secret shown once, and lists it without the secret", async () => {
    const { testKey } = await gw.newBusiness("Keys");
    const created = await gw.call("POST", "/api-keys", {
      key: testKey,
      body: { name: "reporting", permissions: ["read"] },
    });
    expect(created.status).toBe(201);
    const key = created.body.data as KeyView;
    expect(key).toMatchObject({
      object: "apiKey",
      mode: "test",
      name: "reporting",
      prefix: "sk.test.",
      permissions: ["read"],
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(key.secret).toMatch(/^sk\.test\.\w{32}$/);
    expect(key.key).toBeUndefined();
    expect(key.secret!.slice(-4)).toBe(key.last4);
    // The new key works, within its permissions.
    expect((await gw.call("GET", "/customers", { key: key.secret })).status).toBe(200);
    expect((await gw.call("POST", "/customers", { key: key.secret, body: {} })).status).toBe(403);

    const listed = await gw.call("GET", "/api-keys", { key: testKey });
    expect(listed.status).toBe(200);
    expect(listed.body.metadata).toEqual({ hasMore: false });
    const views = listed.body.data as KeyView[];
    expect(views.map((v) => v.id)).toContain(key.id);
    expect(views.every((v) => v.mode === "test")).toBe(true);
    expect(JSON.stringify(listed.body)).not.toContain(key.secret);
    // lastUsedAt is written off the request path.
    await eventually(async () => {
      const again = await gw.call("GET", "/api-keys", { key: testKey });
      expect((again.body.data as KeyView[]).find((v) => v.id === key.id)?.lastUsedAt).not.toBeNull();
    });
  });

  it("lists the caller's mode only, pages with the query language, and filters", async () => {
    const { businessId, testKey } = await gw.newBusiness("Modes");
    const live = await operatorKey(businessId, { mode: "live" });
    for (const name of ["a", "b", "c"]) {
      expect((await gw.call("POST", "/api-keys", { key: testKey, body: { name, permissions: ["read"] } })).status).toBe(
        201,
      );
    }
    // Four test keys: the first one and three more.
    const page = await gw.call("GET", "/api-keys?limit=3", { key: testKey });
    expect(page.body.data).toHaveLength(3);
    expect(page.body.metadata.hasMore).toBe(true);
    const rest = await gw.call("GET", `/api-keys?limit=3&after=${page.body.data[2].id}`, { key: testKey });
    expect(rest.body.data).toHaveLength(1);
    expect(rest.body.metadata.hasMore).toBe(false);
    const named = await gw.call("GET", "/api-keys?filter=name:b", { key: testKey });
    expect(named.body.data.map((k: KeyView) => k.name)).toEqual(["b"]);

    const liveList = await gw.call("GET", "/api-keys", { key: live.key });
    expect(liveList.body.data.map((k: KeyView) => k.id)).toEqual([live.id]);
    expect((await gw.call("GET", "/api-keys?limit=0", { key: testKey })).status).toBe(400);
  });

  it("revokes a key (200 with its view): it is refused at once; another mode's or business's key is 404", async () => {
    const { businessId, testKey } = await gw.newBusiness("Revoke");
    const other = await gw.newBusiness("Other");
    const live = await operatorKey(businessId, { mode: "live" });
    const created = (await gw.call("POST", "/api-keys", { key: testKey, body: { permissions: ["read", "write"] } }))
      .body.data as KeyView;
    const res = await gw.call("DELETE", `/api-keys/${created.id}`, { key: testKey });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: created.id, revokedAt: expect.any(String), prefix: "sk.test." });
    expect((await gw.call("GET", "/customers", { key: created.secret })).status).toBe(401);
    const again = await gw.call("DELETE", `/api-keys/${created.id}`, { key: testKey });
    expect(again.body.data.revokedAt).toBe(res.body.data.revokedAt);

    expect((await gw.call("DELETE", `/api-keys/${live.id}`, { key: testKey })).status).toBe(404);
    expect((await gw.call("DELETE", `/api-keys/${created.id}`, { key: other.testKey })).status).toBe(404);
    expect((await gw.call("DELETE", "/api-keys/key.nothing", { key: testKey })).status).toBe(404);
    expect((await gw.call("GET", "/customers", { key: live.key })).status).toBe(200);
  });

  it("refuses a restricted key (even with every permission) with 403, and validates the body", async () => {
    const { businessId, testKey } = await gw.newBusiness("Restricted keys");
    const restricted = await operatorKey(businessId, {
      mode: "test",
      permissions: ["read", "write", "card-secrets", "webhook-secrets"],
    });
    for (const [method, path, body] of [
      ["GET", "/api-keys", undefined],
      ["POST", "/api-keys", { permissions: ["read"] }],
      ["DELETE", `/api-keys/${restricted.id}`, undefined],
    ] as const) {
      const res = await gw.call(method, path, { key: restricted.key, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.message).toMatch(/full-access/);
    }
    for (const body of [
      {},
      { permissions: [] },
      { permissions: ["read", "read"] },
      { permissions: ["admin"] },
      { permissions: ["read"], mode: "live" },
    ]) {
      const res = await gw.call("POST", "/api-keys", { key: testKey, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it("works through the console session: list, create with the CSRF token, revoke the session's own key", async () => {
    const { businessId } = await gw.newBusiness("Session keys");
    const full = await operatorKey(businessId, { mode: "test", name: "console" });
    const { cookie, csrf } = await signIn(gw, full.key);
    const headers = { cookie, "x-csrf-token": csrf };
    expect((await gw.call("GET", "/api-keys", { headers: { cookie } })).status).toBe(200);
    expect((await gw.call("POST", "/api-keys", { headers: { cookie }, body: { permissions: ["read"] } })).status).toBe(
      403,
    );
    const created = await gw.call("POST", "/api-keys", { headers, body: { permissions: ["read"] } });
    expect(created.status).toBe(201);
    expect((await gw.call("DELETE", `/api-keys/${full.id}`, { headers })).status).toBe(200);
    const refused = await gw.call("GET", "/api-keys", { headers: { cookie } });
    expect(refused.status).toBe(401);
    // The secret of a key made through the console is redacted in the request log.
    const logs = await gw.call("GET", "/logs?filter=path:/api-keys", { key: created.body.data.secret });
    expect(JSON.stringify(logs.body)).not.toContain(created.body.data.secret);
  });
});
