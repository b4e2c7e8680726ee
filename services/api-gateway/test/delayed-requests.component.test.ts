import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOPICS, type EventPublishedMessage } from "@cardhold/contracts";
import { createLogger } from "@cardhold/platform";
import { delayedRequests } from "../src/delayed-requests";
import { PROCESSING_DEADLINE_MS } from "../src/domain/delayed-request";
import { gatewayCaller, newBusiness, OPERATOR, startHarness, type Harness } from "./harness";

const AFTER_MS = 200;
/** Comfortably past AFTER_MS, so the gateway answers 202 first. */
const SLOW = `delayMs=${AFTER_MS * 4}`;

let h: Harness;
const events: EventPublishedMessage[] = [];

beforeAll(async () => {
  h = await startHarness({ delayedRequestAfterMs: AFTER_MS });
  await h.bus.subscribe({
    group: "delayed-requests-test",
    topics: [TOPICS.events],
    handler: async (message) => void events.push(message.value as EventPublishedMessage),
  });
});
afterAll(async () => {
  await h?.stop();
});

const call = gatewayCaller(() => h);
const operator = { "x-operator-token": OPERATOR };

/** A business with its first test key (delayed requests off) and a second one with them on. */
async function businessWithKeys(name: string) {
  const { business, testKey } = await newBusiness(h, name);
  const created = await call("POST", `/admin/businesses/${business.id}/keys`, {
    headers: operator,
    body: { mode: "test", delayedRequests: true },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(created.body.data.delayedRequests).toBe(true);
  return { businessId: business.id as string, offKey: testKey, onKey: created.body.data.key as string };
}

async function eventually<T>(check: () => Promise<T>, timeoutMs = 5_000): Promise<T> {
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

/** GET /requests/:id until it is no longer processing. */
const finished = (key: string, id: string) =>
  eventually(async () => {
    const res = await call("GET", `/requests/${id}`, { key });
    expect(res.status).toBe(200);
    expect(res.body.data.status).not.toBe("processing");
    return res.body;
  });

const completedEventOf = (id: string) =>
  eventually(async () => {
    const event = events.find((e) => e.data.resourceId === id);
    expect(event).toBeDefined();
    return event!;
  });

describe("a key with delayed requests off (the default)", () => {
  it("waits for a slow write and answers it as usual: no 202, no request record", async () => {
    const { offKey } = await businessWithKeys("Off Ltd");
    const res = await call("POST", `/cards?${SLOW}`, { key: offKey, body: {} });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ code: "success", data: { delayedMs: AFTER_MS * 4 } });
    const id = res.headers.get("x-request-id")!;
    expect((await call("GET", `/requests/${id}`, { key: offKey })).status).toBe(404);
  });
});

describe("a key with delayed requests on", () => {
  it("answers a slow write 202 request-accepted with x-request-id; GET /requests/:id shows processing, then the answer", async () => {
    const { onKey } = await businessWithKeys("Slow Ltd");
    const accepted = await call("POST", `/cards?${SLOW}`, { key: onKey, body: { program: "c.prg.1" } });
    expect(accepted.status).toBe(202);
    const id = accepted.headers.get("x-request-id")!;
    expect(id).toMatch(/^req\./);
    expect(accepted.body).toEqual({
      code: "request-accepted",
      data: {
        id,
        object: "request",
        method: "POST",
        path: "/cards",
        status: "processing",
        statusCode: null,
        responseBody: null,
        createdAt: expect.any(String),
        completedAt: null,
      },
    });

    const processing = await call("GET", `/requests/${id}`, { key: onKey });
    expect(processing.status).toBe(200);
    expect(processing.body.data).toMatchObject({ id, object: "request", status: "processing" });

    const done = await finished(onKey, id);
    expect(done.data).toMatchObject({
      id,
      status: "completed",
      statusCode: 201,
      responseBody: { code: "success", data: { delayedMs: AFTER_MS * 4 } },
    });
    expect(Date.parse(done.data.completedAt)).toBeGreaterThanOrEqual(Date.parse(done.data.createdAt));
    // The other gateway instance reads the same record.
    const elsewhere = await call("GET", `/requests/${id}`, { key: onKey, gateway: h.gateways[1].url });
    expect(elsewhere.body).toEqual(done);

    const event = await completedEventOf(id);
    expect(event.data.envelope).toMatchObject({ event: "request.completed", data: done.data });
    expect(event.data.envelope.metadata.event).toMatch(/^evt\./);
  });

  it("answers a write that comes in time, and every read, as usual", async () => {
    const { onKey } = await businessWithKeys("Fast Ltd");
    const fast = await call("POST", "/cards", { key: onKey, body: {} });
    expect(fast.status).toBe(201);
    expect(fast.body).toEqual({ code: "success", data: {} });
    const slowRead = await call("GET", `/cards?${SLOW}`, { key: onKey });
    expect(slowRead.status).toBe(200);
    expect(slowRead.body.data).toEqual({ delayedMs: AFTER_MS * 4 });
  });

  it("records a write the service answers with an error as failed, with that answer", async () => {
    const { onKey } = await businessWithKeys("Failing Ltd");
    const accepted = await call("POST", `/cards?${SLOW}&status=502`, { key: onKey, body: {} });
    expect(accepted.status).toBe(202);
    const id = accepted.body.data.id as string;
    const done = await finished(onKey, id);
    expect(done.data).toMatchObject({
      status: "failed",
      statusCode: 502,
      responseBody: { statusCode: 502, code: "made-to-fail" },
      completedAt: expect.any(String),
    });
    expect((await completedEventOf(id)).data.envelope.data).toMatchObject({ status: "failed", statusCode: 502 });
  });

  it("does not reuse a request id the client chose twice: the second request is answered when done", async () => {
    const { onKey } = await businessWithKeys("Chosen Ids Ltd");
    const headers = { "x-request-id": "client-chosen-1" };
    const first = await call("POST", `/cards?${SLOW}`, { key: onKey, body: {}, headers });
    expect(first.status).toBe(202);
    expect(first.body.data.id).toBe("client-chosen-1");
    const second = await call("POST", `/cards?${SLOW}`, { key: onKey, body: {}, headers });
    expect(second.status).toBe(201);
  });

  it("keeps each request to its business and mode: another business's id, or the other mode's key, is a 404", async () => {
    const owner = await businessWithKeys("Owner Ltd");
    const other = await businessWithKeys("Other Ltd");
    const accepted = await call("POST", `/cards?${SLOW}`, { key: owner.onKey, body: {} });
    const id = accepted.body.data.id as string;
    const foreign = await call("GET", `/requests/${id}`, { key: other.onKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ statusCode: 404, code: "not-found", message: `Request ${id} was not found` });
    const live = await call("POST", `/admin/businesses/${owner.businessId}/keys`, {
      headers: operator,
      body: { mode: "live" },
    });
    expect((await call("GET", `/requests/${id}`, { key: live.body.data.key })).status).toBe(404);
    expect((await call("GET", "/requests/req.unknown", { key: owner.onKey })).status).toBe(404);
  });
});

describe("a request its gateway stopped waiting for", () => {
  const insertOld = async (businessId: string, id: string) => {
    const made = new Date(Date.now() - PROCESSING_DEADLINE_MS - 60_000);
    await h.pg.db.query(
      `INSERT INTO gateway.delayed_requests (business_id, mode, id, api_key, method, path, status, created_at)
       VALUES ($1, 'test', $2, 'key.gone', 'POST', '/cards', 'processing', $3)`,
      [businessId, id, made],
    );
  };

  it("reads as failed, 503 request-interrupted, once past the deadline, and its event is sent", async () => {
    const { businessId, offKey } = await businessWithKeys("Crashed Ltd");
    await insertOld(businessId, "req.crashed1");
    const res = await call("GET", "/requests/req.crashed1", { key: offKey });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: "failed",
      statusCode: 503,
      responseBody: { statusCode: 503, code: "request-interrupted" },
    });
    expect((await completedEventOf("req.crashed1")).data.envelope.data).toMatchObject({ status: "failed" });
  });

  it("is failed by the sweep every gateway runs at start and every minute", async () => {
    const { businessId, offKey } = await businessWithKeys("Swept Ltd");
    await insertOld(businessId, "req.crashed2");
    const sweeper = delayedRequests({
      db: h.pg.db,
      relay: { wake: () => undefined },
      logger: createLogger("api-gateway", "silent"),
      proxy: { answerOf: () => Promise.reject(new Error("not used")), send: () => undefined },
      afterMs: AFTER_MS,
    });
    const failed = await sweeper.failInterrupted();
    expect(failed.map((r) => r.id)).toContain("req.crashed2");
    const [row] = (
      await h.pg.db.query("SELECT status, status_code FROM gateway.delayed_requests WHERE id = 'req.crashed2'")
    ).rows;
    expect(row).toEqual({ status: "failed", status_code: 503 });
    expect((await call("GET", "/requests/req.crashed2", { key: offKey })).body.data.status).toBe("failed");
  });
});

describe("the admin API's delayedRequests", () => {
  it("is off on a new key, shown in the list, and turned on and off by PATCH", async () => {
    const { businessId, offKey } = await businessWithKeys("Toggle Ltd");
    const keys = await call("GET", `/admin/businesses/${businessId}/keys`, { headers: operator });
    const first = (keys.body.data as { id: string; delayedRequests: boolean }[]).at(-1)!;
    expect(first.delayedRequests).toBe(false);

    const on = await call("PATCH", `/admin/businesses/${businessId}/keys/${first.id}`, {
      headers: operator,
      body: { delayedRequests: true },
    });
    expect(on.status).toBe(200);
    expect(on.body.data).toMatchObject({ id: first.id, object: "apiKey", delayedRequests: true });
    // This gateway applies the change at once.
    expect((await call("POST", `/cards?${SLOW}`, { key: offKey, body: {} })).status).toBe(202);
  });

  it("refuses a bad body with a 400 naming the field, and an unknown key with a 404", async () => {
    const { businessId } = await businessWithKeys("Bad Body Ltd");
    const keys = await call("GET", `/admin/businesses/${businessId}/keys`, { headers: operator });
    const keyId = keys.body.data[0].id as string;
    const path = `/admin/businesses/${businessId}/keys/${keyId}`;
    for (const body of [{ delayedRequests: "yes" }, {}, { delayedRequests: true, name: "x" }]) {
      const res = await call("PATCH", path, { headers: operator, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, code: "invalid-request" });
    }
    const created = await call("POST", `/admin/businesses/${businessId}/keys`, {
      headers: operator,
      body: { mode: "test", delayedRequests: "on" },
    });
    expect(created.status).toBe(400);
    expect(created.body.errors).toEqual([{ path: "delayedRequests", message: expect.any(String) }]);
    const unknown = await call("PATCH", `/admin/businesses/${businessId}/keys/key.unknown`, {
      headers: operator,
      body: { delayedRequests: true },
    });
    expect(unknown.status).toBe(404);
    const noOperator = await call("PATCH", path, { body: { delayedRequests: true } });
    expect(noOperator.status).toBe(401);
  });
});
