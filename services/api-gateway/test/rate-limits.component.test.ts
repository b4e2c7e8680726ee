import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayCaller, newBusiness as newBusinessVia, OPERATOR, startHarness, type Harness } from "./harness";

const DEFAULTS = { perKey: { rate: 5, burst: 5 }, perBusiness: { rate: 1_000, burst: 1_000 } };

let h: Harness;
let gatewayA: string;
let gatewayB: string;

beforeAll(async () => {
  h = await startHarness({ rateLimits: DEFAULTS });
  gatewayA = h.gateways[0].url;
  gatewayB = h.gateways[1].url;
});
afterAll(async () => {
  await h?.stop();
});

const operator = { "x-operator-token": OPERATOR };
const call = gatewayCaller(() => h);

const newBusiness = (name: string) => newBusinessVia(h, name);

const limitsPath = (businessId: string) => `/admin/businesses/${businessId}/rate-limits`;
const setLimits = (businessId: string, body: unknown, gateway = gatewayA) =>
  call("PUT", limitsPath(businessId), { headers: operator, body, gateway });

/** Sends `n` list requests one after the other; their statuses. */
async function statuses(key: string, n: number, gateway = gatewayA): Promise<number[]> {
  const out = [];
  for (let i = 0; i < n; i++) out.push((await call("GET", "/customers", { key, gateway })).status);
  return out;
}

describe("limits per key", () => {
  it("announces the policy on every answer and answers 429 with Retry-After once the burst is spent", async () => {
    const { testKey } = await newBusiness("Burst");
    const first = await call("GET", "/customers", { key: testKey });
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-policy")).toBe('"per-key";q=5;w=1, "per-business";q=1000;w=1');
    expect(first.headers.get("ratelimit")).toMatch(/^"per-key";r=4;t=1, "per-business";r=999;t=1$/);

    expect(await statuses(testKey, 4)).toEqual([200, 200, 200, 200]);
    const refused = await call("GET", "/customers", { key: testKey });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ statusCode: 429, code: "rate-limited" });
    expect(refused.body.message).toContain("per-key");
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.headers.get("ratelimit-policy")).toContain('"per-key";q=5;w=1');
    expect(refused.headers.get("ratelimit")).toMatch(/^"per-key";r=0;t=1,/);
    expect(h.forwarded.filter((f) => f.url === "/customers").length).toBeGreaterThanOrEqual(5);

    await new Promise((r) => setTimeout(r, 1_100));
    expect((await call("GET", "/customers", { key: testKey })).status).toBe(200);
  });

  it("never limits health, readiness, the docs, or the simulation (the card network's side)", async () => {
    const { testKey } = await newBusiness("Exempt");
    await statuses(testKey, 8);
    expect((await call("GET", "/customers", { key: testKey })).status).toBe(429);
    for (const path of ["/health", "/ready", "/openapi.json", "/docs"]) {
      const res = await call("GET", path, { key: testKey });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("ratelimit"), path).toBeNull();
    }
    for (let i = 0; i < 10; i++) {
      const res = await call("POST", "/simulation/cards/c.1/request-authorization/capture", {
        key: testKey,
        body: { amount: 100 },
      });
      expect(res.status).toBe(201);
      expect(res.headers.get("ratelimit")).toBeNull();
    }
  });
});

describe("limits per business", () => {
  it("holds all of a business's keys to the business's limit", async () => {
    const { business, testKey } = await newBusiness("Two keys");
    expect((await setLimits(business.id, { perBusiness: { rate: 1, burst: 6 } })).status).toBe(200);
    const second = await call("POST", `/admin/businesses/${business.id}/keys`, {
      headers: operator,
      body: { mode: "test" },
    });
    const otherKey = second.body.data.key as string;
    const admitted = [...(await statuses(testKey, 4)), ...(await statuses(otherKey, 4))].filter((s) => s === 200);
    expect(admitted).toHaveLength(6);
    const refused = await call("GET", "/customers", { key: otherKey });
    expect(refused.body.message).toContain("per-business");
  });
});

describe("the admin API for a business's limits", () => {
  it("shows the defaults, sets an override applied at once (on the other gateway within a second), clears it", async () => {
    const { business, testKey } = await newBusiness("Override");
    const shown = await call("GET", limitsPath(business.id), { headers: operator });
    expect(shown.body.data).toEqual({
      object: "rateLimits",
      business: business.id,
      perKey: { rate: 5, burst: 5, source: "default" },
      perBusiness: { rate: 1_000, burst: 1_000, source: "default" },
    });

    const set = await setLimits(business.id, { perKey: { rate: 1, burst: 2 } });
    expect(set.status).toBe(200);
    expect(set.body.data.perKey).toEqual({ rate: 1, burst: 2, source: "override" });
    expect(set.body.data.perBusiness.source).toBe("default");
    expect(await statuses(testKey, 3)).toEqual([200, 200, 429]);

    await new Promise((r) => setTimeout(r, 1_200));
    const onB = await call("GET", "/customers", { key: testKey, gateway: gatewayB });
    expect(onB.headers.get("ratelimit-policy")).toContain('"per-key";q=1;w=1');
    const readOnB = await call("GET", limitsPath(business.id), { headers: operator, gateway: gatewayB });
    expect(readOnB.body.data.perKey.source).toBe("override");

    const cleared = await call("DELETE", limitsPath(business.id), { headers: operator });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.perKey).toEqual({ rate: 5, burst: 5, source: "default" });
    const after = await call("GET", "/customers", { key: testKey });
    expect(after.headers.get("ratelimit-policy")).toContain('"per-key";q=5;w=1');
  });

  it.each([
    ["an empty body", {}],
    ["a misspelt policy", { perkey: { rate: 1, burst: 1 } }],
    ["a zero rate", { perKey: { rate: 0, burst: 1 } }],
    ["a fractional burst", { perKey: { rate: 1, burst: 1.5 } }],
    ["a missing burst", { perBusiness: { rate: 10 } }],
    ["a string rate", { perKey: { rate: "10", burst: 10 } }],
    ["a list", [{ perKey: { rate: 1, burst: 1 } }]],
  ])("refuses %s with 400", async (_name, body) => {
    const { business } = await newBusiness("Bad input");
    const res = await setLimits(business.id, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, code: "invalid-request" });
    expect((await call("GET", limitsPath(business.id), { headers: operator })).body.data.perKey.source).toBe("default");
  });

  it("answers 404 for an unknown business and 401 without the operator token", async () => {
    expect((await setLimits("bus.unknown", { perKey: { rate: 1, burst: 1 } })).status).toBe(404);
    expect((await call("GET", limitsPath("bus.unknown"), { headers: operator })).status).toBe(404);
    const { business } = await newBusiness("No token");
    expect((await call("GET", limitsPath(business.id))).status).toBe(401);
  });
});

/** Sends list requests over `connections` loops until `ms` pass; how many each status got. */
async function flood(key: string, gateway: string, connections: number, until: number) {
  const counts = new Map<number, number>();
  const loop = async () => {
    while (Date.now() < until) {
      const { status } = await call("GET", "/customers", { key, gateway });
      counts.set(status, (counts.get(status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  return counts;
}

describe("two gateway instances on one database", () => {
  it("together admit the limit, within 10 %", async () => {
    const { business, testKey } = await newBusiness("Shared");
    const limit = { rate: 40, burst: 40 };
    await setLimits(business.id, { perKey: limit, perBusiness: { rate: 10_000, burst: 10_000 } });
    await new Promise((r) => setTimeout(r, 1_200)); // the override reaches gateway B
    const started = Date.now();
    const until = started + 3_000;
    const [onA, onB] = await Promise.all([flood(testKey, gatewayA, 6, until), flood(testKey, gatewayB, 6, until)]);
    const seconds = (Date.now() - started) / 1000;
    const admitted = (onA.get(200) ?? 0) + (onB.get(200) ?? 0);
    const allowed = limit.burst + limit.rate * seconds;
    expect(onA.get(429) ?? 0).toBeGreaterThan(0);
    expect(onB.get(429) ?? 0).toBeGreaterThan(0);
    expect(onA.get(200) ?? 0).toBeGreaterThan(0);
    expect(onB.get(200) ?? 0).toBeGreaterThan(0);
    expect(admitted).toBeLessThanOrEqual(allowed * 1.1);
    expect(admitted).toBeGreaterThanOrEqual(allowed * 0.7);
  });
});
