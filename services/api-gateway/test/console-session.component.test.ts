import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_RATE_LIMITS } from "../src/service";
import { eventually } from "../../../test/support/eventually";
import { OPERATOR } from "./harness";
import { newClientAddress, signIn, startConsoleGateway, type ConsoleGateway } from "./console-support";

let gw: ConsoleGateway;
let origin: string;

beforeAll(async () => {
  gw = await startConsoleGateway({ rateLimits: DEFAULT_RATE_LIMITS, trustProxy: "loopback" });
  origin = gw.url;
});
afterAll(async () => {
  await gw?.stop();
});

const withCookie = (cookie: string, extra: Record<string, string> = {}) => ({ headers: { cookie, ...extra } });

async function restrictedKey(businessId: string, permissions: string[]) {
  const res = await gw.call("POST", `/admin/businesses/${businessId}/keys`, {
    headers: { "x-operator-token": OPERATOR },
    body: { mode: "test", permissions },
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; key: string };
}

const sessionRows = async () =>
  (await gw.pg.db.query<{ id_hash: string; key_id: string }>("SELECT * FROM gateway.console_sessions")).rows;

describe("signing in to the console", () => {
  it("exchanges a secret key for an HttpOnly, SameSite=Strict cookie and the session; stores neither key nor id", async () => {
    const { businessId, testKey } = await gw.newBusiness("Sign-in");
    const res = await gw.call("POST", "/console/api/session", { body: { key: testKey }, headers: newClientAddress() });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      business: { id: businessId, name: "Sign-in" },
      mode: "test",
      keyId: expect.stringMatching(/^key\./),
      permissions: null,
      csrfToken: expect.stringMatching(/^[\w-]{43}$/),
    });
    expect(Date.parse(res.body.expiresAt) - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(Date.parse(res.body.expiresAt) - Date.now()).toBeLessThanOrEqual(30 * 60_000);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const setCookie = res.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^cardhold_session=[\w-]{43}; HttpOnly; SameSite=Strict; Path=\/; Max-Age=43200$/);
    expect(setCookie).not.toContain("Secure"); // plain HTTP here

    const id = setCookie.split(";")[0]!.split("=")[1]!;
    const stored = JSON.stringify(await sessionRows());
    expect(stored).not.toContain(id);
    expect(stored).not.toContain(testKey);
    expect(stored).toContain(res.body.keyId);
  });

  it("marks the cookie Secure when a trusted proxy says the request came over TLS", async () => {
    const { testKey } = await gw.newBusiness("Secure");
    const res = await gw.call("POST", "/console/api/session", {
      body: { key: testKey },
      headers: { "x-forwarded-proto": "https", ...newClientAddress() },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("set-cookie")).toMatch(/; Secure$/);
  });

  it("refuses a wrong, malformed or publishable key with 401, a body without a key with 400, and sets no cookie", async () => {
    const { testKey } = await gw.newBusiness("Wrong keys");
    const wrong = testKey.slice(0, -4) + (testKey.endsWith("aaaa") ? "bbbb" : "aaaa");
    for (const key of [wrong, "pk.test.0123456789abcdefghijkmnopqrstuvw", "sk_test_123", "x"]) {
      const res = await gw.call("POST", "/console/api/session", { body: { key }, headers: newClientAddress() });
      expect(res.status, key).toBe(401);
      expect(res.body.message).toBe("The secret key is not valid");
      expect(res.headers.get("set-cookie")).toBeNull();
    }
    for (const body of [{}, { key: 42 }, { key: testKey, extra: true }, "a string"]) {
      const res = await gw.call("POST", "/console/api/session", { body, headers: newClientAddress() });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it("refuses a sign-in from another site's page (Origin) with 403", async () => {
    const { testKey } = await gw.newBusiness("Cross-site sign-in");
    const res = await gw.call("POST", "/console/api/session", {
      body: { key: testKey },
      headers: { origin: "https://evil.example", ...newClientAddress() },
    });
    expect(res.status).toBe(403);
    const same = await gw.call("POST", "/console/api/session", {
      body: { key: testKey },
      headers: { origin, ...newClientAddress() },
    });
    expect(same.status).toBe(201);
  });

  it("answers GET with the session (the same CSRF token) and 401 without a valid cookie", async () => {
    const { testKey } = await gw.newBusiness("Get session");
    const { cookie, csrf, body } = await signIn(gw, testKey);
    const res = await gw.call("GET", "/console/api/session", withCookie(cookie));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...body, expiresAt: expect.any(String) });
    expect(res.body.csrfToken).toBe(csrf);

    expect((await gw.call("GET", "/console/api/session")).status).toBe(401);
    const bogus = await gw.call("GET", "/console/api/session", withCookie("cardhold_session=" + "A".repeat(43)));
    expect(bogus.status).toBe(401);
    expect(bogus.body.message).toMatch(/sign in/i);
  });

  it("signs out with DELETE and the CSRF token: 204, cookie cleared, session gone; without the token 403", async () => {
    const { testKey } = await gw.newBusiness("Sign out");
    const { cookie, csrf } = await signIn(gw, testKey);
    expect((await gw.call("DELETE", "/console/api/session", withCookie(cookie))).status).toBe(403);
    const wrong = await gw.call(
      "DELETE",
      "/console/api/session",
      // Another first character (a token that already began with "x" made this "wrong" token the right one).
      withCookie(cookie, { "x-csrf-token": (csrf.startsWith("x") ? "y" : "x") + csrf.slice(1) }),
    );
    expect(wrong.status).toBe(403);
    expect((await gw.call("GET", "/console/api/session", withCookie(cookie))).status).toBe(200);

    const res = await gw.call("DELETE", "/console/api/session", withCookie(cookie, { "x-csrf-token": csrf }));
    expect(res.status).toBe(204);
    expect(res.headers.get("set-cookie")).toMatch(/^cardhold_session=; HttpOnly; SameSite=Strict; Path=\/; Max-Age=0$/);
    expect((await gw.call("GET", "/console/api/session", withCookie(cookie))).status).toBe(401);
    expect((await gw.call("GET", "/customers", withCookie(cookie))).status).toBe(401);
  });

  it("limits sign-in attempts per client address: 429 with Retry-After once the burst is spent", async () => {
    const limited = await startConsoleGateway();
    try {
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 12; i++) {
        const res = await limited.call("POST", "/console/api/session", { body: { key: `sk.test.${"1".repeat(32)}` } });
        statuses.push(res.status);
        if (res.status === 429) retryAfter = res.headers.get("retry-after");
      }
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
      expect(statuses.slice(10)).toEqual([429, 429]);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      // A good key is refused too until the bucket refills: the limit is on attempts, not on failures.
      const { testKey } = await limited.newBusiness("Limited");
      expect((await limited.call("POST", "/console/api/session", { body: { key: testKey } })).status).toBe(429);
    } finally {
      await limited.stop();
    }
  });
});

describe("the session cookie on the public API", () => {
  it("is the key's caller on a GET: same business, mode and key id upstream, rate limited like the key", async () => {
    const { testKey } = await gw.newBusiness("Cookie GET");
    const { cookie, body } = await signIn(gw, testKey);
    const res = await gw.call("GET", "/customers?limit=1", withCookie(cookie));
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit-policy")).toContain("per-key");
    const forwarded = gw.fake.forwarded.at(-1)!;
    expect(forwarded).toMatchObject({ method: "GET", url: "/customers?limit=1", keyId: body.keyId });
    expect(forwarded.headers["x-business-id"]).toBe(body.business.id);
    expect(forwarded.headers["x-mode"]).toBe("test");
    expect(forwarded.headers.cookie).toBeUndefined();
  });

  it("needs X-CSRF-Token on a write: 403 without or wrong, and passes with it (Idempotency-Key forwarded)", async () => {
    const { testKey } = await gw.newBusiness("Cookie POST");
    const { cookie, csrf } = await signIn(gw, testKey);
    const before = gw.fake.forwarded.length;
    const missing = await gw.call("POST", "/customers", { ...withCookie(cookie), body: { name: "A" } });
    expect(missing.status).toBe(403);
    expect(missing.body.message).toMatch(/CSRF/);
    const wrong = await gw.call("POST", "/customers", {
      ...withCookie(cookie, { "x-csrf-token": csrf.split("").reverse().join("") }),
      body: { name: "A" },
    });
    expect(wrong.status).toBe(403);
    expect(gw.fake.forwarded.length).toBe(before);

    const ok = await gw.call("POST", "/customers", {
      ...withCookie(cookie, { "x-csrf-token": csrf, "idempotency-key": "console-1", origin }),
      body: { name: "A" },
    });
    expect(ok.status).toBe(201);
    const forwarded = gw.fake.forwarded.at(-1)!;
    expect(forwarded.headers["idempotency-key"]).toBe("console-1");
    expect(forwarded.headers["x-csrf-token"]).toBeUndefined();
  });

  it("refuses a write from another Origin even with the CSRF token", async () => {
    const { testKey } = await gw.newBusiness("Cookie cross-site");
    const { cookie, csrf } = await signIn(gw, testKey);
    for (const bad of ["https://evil.example", "null", `${origin}.evil.example`]) {
      const res = await gw.call("POST", "/customers", {
        ...withCookie(cookie, { "x-csrf-token": csrf, origin: bad }),
        body: { name: "A" },
      });
      expect(res.status, bad).toBe(403);
    }
  });

  it("ignores the cookie when an Authorization header is sent", async () => {
    const { testKey } = await gw.newBusiness("Header wins");
    const { cookie } = await signIn(gw, testKey);
    const res = await gw.call("GET", "/customers", withCookie(cookie, { authorization: "Bearer sk.test.wrong" }));
    expect(res.status).toBe(401);
    expect(res.body.message).toBe("The secret key is not valid");
  });

  it("applies a restricted key's permissions: card secrets and writes refused, reads allowed", async () => {
    const { businessId } = await gw.newBusiness("Restricted");
    const key = await restrictedKey(businessId, ["read"]);
    const { cookie, csrf, body } = await signIn(gw, key.key);
    expect(body.permissions).toEqual(["read"]);
    expect((await gw.call("GET", "/cards", withCookie(cookie))).status).toBe(200);
    const secrets = await gw.call("GET", "/cards/c.2tVghquVL5LxCkjB3/secrets", withCookie(cookie));
    expect(secrets.status).toBe(403);
    expect(secrets.body.message).toContain("card-secrets");
    const write = await gw.call("POST", "/customers", { ...withCookie(cookie, { "x-csrf-token": csrf }), body: {} });
    expect(write.status).toBe(403);
    expect(write.body.message).toContain("'write'");

    const withSecrets = await restrictedKey(businessId, ["read", "card-secrets"]);
    const other = await signIn(gw, withSecrets.key);
    const allowed = await gw.call("GET", "/cards/c.2tVghquVL5LxCkjB3/secrets", withCookie(other.cookie));
    expect(allowed.status).toBe(200);
    expect(allowed.body.data.pan).toBe("5061000000000001");
  });

  it("ends the session when its key is revoked: 401 on the API and on GET session", async () => {
    const { businessId } = await gw.newBusiness("Revoked");
    const key = await restrictedKey(businessId, ["read"]);
    const { cookie } = await signIn(gw, key.key);
    expect((await gw.call("GET", "/customers", withCookie(cookie))).status).toBe(200);
    const revoked = await gw.call("DELETE", `/admin/businesses/${businessId}/keys/${key.id}`, {
      headers: { "x-operator-token": OPERATOR },
    });
    expect(revoked.status).toBe(200);
    const refused = await gw.call("GET", "/customers", withCookie(cookie));
    expect(refused.status).toBe(401);
    expect(refused.body.message).toMatch(/revoked/);
    expect((await gw.call("GET", "/console/api/session", withCookie(cookie))).status).toBe(401);
  });

  it("expires after 30 minutes idle and 12 hours at most: 401 'session expired'", async () => {
    const { testKey } = await gw.newBusiness("Expiry");
    const idle = await signIn(gw, testKey);
    const old = await signIn(gw, testKey);
    const hashOf = async (keyId: string) =>
      (await sessionRows()).filter((r) => r.key_id === keyId).map((r) => r.id_hash);
    const [idleHash, oldHash] = await hashOf(idle.body.keyId);
    expect(oldHash).toBeDefined();
    // The clock is the database's row: move the first session's last request 31 minutes back, the second's end to now.
    await gw.pg.db.query(
      "UPDATE gateway.console_sessions SET last_seen_at = now() - interval '31 minutes' WHERE id_hash = $1",
      [idleHash],
    );
    await gw.pg.db.query("UPDATE gateway.console_sessions SET expires_at = now() WHERE id_hash = $1", [oldHash]);
    for (const { cookie } of [idle, old]) {
      const res = await gw.call("GET", "/customers", withCookie(cookie));
      expect(res.status).toBe(401);
      expect(res.body.message).toBe("session expired");
      expect((await gw.call("GET", "/console/api/session", withCookie(cookie))).status).toBe(401);
    }
  });

  it("keeps a session alive while it is used: a request moves last_seen_at forward", async () => {
    const { testKey } = await gw.newBusiness("Activity");
    const { cookie, body } = await signIn(gw, testKey);
    await gw.pg.db.query(
      "UPDATE gateway.console_sessions SET last_seen_at = now() - interval '29 minutes' WHERE key_id = $1",
      [body.keyId],
    );
    expect((await gw.call("GET", "/customers", withCookie(cookie))).status).toBe(200);
    const { rows } = await gw.pg.db.query<{ idle: number }>(
      "SELECT extract(epoch FROM now() - last_seen_at) AS idle FROM gateway.console_sessions WHERE key_id = $1",
      [body.keyId],
    );
    expect(Number(rows[0]!.idle)).toBeLessThan(60);
  });

  it("is logged like a key request (its key id), never with the cookie or the CSRF token, and marks the key used", async () => {
    const { testKey } = await gw.newBusiness("Logged");
    const { cookie, csrf, body } = await signIn(gw, testKey);
    const sessionId = cookie.split("=")[1]!;
    await gw.call("POST", "/customers", {
      ...withCookie(cookie, { "x-csrf-token": csrf }),
      body: { name: "Logged", note: "hello" },
    });
    await gw.call("GET", "/customers?limit=2", withCookie(cookie));
    const logs = await gw.call("GET", "/logs?limit=10", { key: testKey });
    expect(logs.status).toBe(200);
    const byCookie = (logs.body.data as { apiKey: string; path: string; method: string }[]).filter(
      (l) => l.path === "/customers",
    );
    expect(byCookie.map((l) => l.method).sort()).toEqual(["GET", "POST"]);
    for (const entry of byCookie) expect(entry.apiKey).toBe(body.keyId);
    const text = JSON.stringify(logs.body);
    expect(text).not.toContain(sessionId);
    expect(text).not.toContain(csrf);
    await eventually(async () => {
      const keys = await gw.call("GET", "/api-keys", { key: testKey });
      const used = (keys.body.data as { id: string; lastUsedAt: string | null }[]).find((k) => k.id === body.keyId);
      expect(used?.lastUsedAt).not.toBeNull();
    });
  });
});
