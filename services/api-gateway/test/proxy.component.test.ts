import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayCaller, newBusiness, OPERATOR, startHarness, type Harness } from "./harness";

let h: Harness;
let key: string;
beforeAll(async () => {
  h = await startHarness();
  key = (await newBusiness(h, "Proxy Ltd")).testKey;
});
afterAll(async () => {
  await h?.stop();
});

const call = gatewayCaller(() => h);

describe("the answer headers of the service behind the gateway", () => {
  it("a card's secrets reach the client marked not to be cached", async () => {
    const secrets = await call("GET", "/cards/c.1/secrets", { key });
    expect(secrets.status).toBe(200);
    expect(secrets.headers.get("cache-control")).toBe("no-store");
  });

  it("a download keeps its file name", async () => {
    const csv = await call("GET", "/accounts/ac.1/logs/csv", { key });
    expect(csv.headers.get("content-disposition")).toBe("attachment; filename=ac.1-log.csv");
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
  });

  it("a 409 for a key still in use keeps its Retry-After", async () => {
    const busy = await call("POST", "/events/evt.busy/retry", { key, body: {}, headers: { "idempotency-key": "k-1" } });
    expect(busy.status).toBe(409);
    expect(busy.headers.get("retry-after")).toBe("7");
  });

  it("the time a request reached the gateway is the gateway's own, whatever the client sends as x-received-at", async () => {
    const future = String(Date.now() + 3_600_000);
    const before = Date.now();
    const answer = await call("GET", "/customers?received=1", { key, headers: { "x-received-at": future } });
    expect(answer.status).toBe(200);
    const forwarded = h.forwarded.find((f) => f.url === "/customers?received=1")!;
    expect(Number(forwarded.receivedAt)).toBeGreaterThanOrEqual(before);
    expect(Number(forwarded.receivedAt)).toBeLessThanOrEqual(Date.now());
  });

  it("other service headers stay behind the gateway", async () => {
    const answer = await call("GET", "/customers", { key });
    expect(answer.headers.get("x-powered-by")).toBeNull();
  });
});

describe("the card network's authorizations forwarded to the engine", () => {
  const capture = (as: string, delayMs: number) =>
    call("POST", `/simulation/cards/c.1/request-authorization/capture?delayMs=${delayMs}`, {
      key: as,
      body: { amount: 100, channel: "online" },
    });

  it("leave a quarter of the connections to the engine to other businesses while one business's wait", async () => {
    const stalled = (await newBusiness(h, "Stalled Ltd")).testKey;
    const held = Array.from({ length: 70 }, () => capture(stalled, 1_500)); // more than the 64 connections
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    const other = await capture(key, 0);
    expect(other.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(1_000); // not behind the stalled business's 1.5 s answers
    const answers = await Promise.all(held);
    expect(answers.map((a) => a.status)).toEqual(Array(70).fill(201)); // the rest waited for places, within 2 s
  });

  it("refuse a new one that waited 2 s for a place with 503 platform-overloaded, and count it", async () => {
    const stalled = (await newBusiness(h, "Slow Ltd")).testKey;
    const held = Array.from({ length: 48 }, () => capture(stalled, 4_500));
    await new Promise((r) => setTimeout(r, 200));
    const refused = await capture(stalled, 0);
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ code: "platform-overloaded" });
    // An amount change or a reversal takes no place (the engine never refuses one): it goes while the 48 are held.
    const started = Date.now();
    const reversal = await call("POST", "/simulation/cards/c.1/request-authorization/reverse-capture", {
      key: stalled,
      body: { authorization: "ca.1" },
    });
    expect(reversal.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect((await Promise.all(held)).every((a) => a.status === 201)).toBe(true);
    const metrics = await call("GET", "/metrics", { headers: { "x-operator-token": OPERATOR } });
    expect(metrics.body).toMatch(/^gateway_network_requests_shed_total{service="api-gateway"} 1$/m);
  });
});
