import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayCaller, newBusiness, startHarness, type Harness } from "./harness";

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

  it("other service headers stay behind the gateway", async () => {
    const answer = await call("GET", "/customers", { key });
    expect(answer.headers.get("x-powered-by")).toBeNull();
  });
});
