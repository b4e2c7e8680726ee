import { EventEmitter } from "node:events";
import type { NextFunction, Request, Response } from "express";
import pino from "pino";
import { describe, expect, it, vi } from "vitest";
import type { Db } from "@cardhold/db";
import { createRequestLog } from "./request-log";

function fakeDb(fail = false) {
  const statements: unknown[][] = [];
  const db = {
    bookkeeping: vi.fn(async (_text: string, values: unknown[]) => {
      if (fail) throw new Error("database down");
      statements.push(values);
      return { rows: [] };
    }),
  } as unknown as Db;
  return { db, statements };
}

/** The logs a statement wrote (they go as one JSON document). */
const logsOf = (values: unknown[]) => JSON.parse(values[0] as string) as Record<string, unknown>[];

function serve(
  log: ReturnType<typeof createRequestLog>,
  path: string,
  body: unknown,
  loggedBody: unknown = { ok: true },
) {
  const req = {
    caller: { businessId: "business_1", mode: "test", keyId: "key_1" },
    requestId: `req_${path}`,
    method: "POST",
    path,
    body,
  } as unknown as Request;
  const res = Object.assign(new EventEmitter(), { statusCode: 201, loggedBody }) as unknown as Response;
  log.middleware(req, res, (() => undefined) as NextFunction);
  res.emit("finish");
}

describe("request log", () => {
  it("writes the requests of one moment in one statement, secrets redacted", async () => {
    const { db, statements } = fakeDb();
    const log = createRequestLog(db, pino({ level: "silent" }), { delayMs: 1_000 });
    serve(log, "/customers", { name: "Ada" });
    serve(log, "/cards", { pin: "1234" });
    serve(log, "/webhooks", { url: "https://example.com" });
    expect(statements).toHaveLength(0);
    await log.flush();
    expect(statements).toHaveLength(1);
    const logs = logsOf(statements[0]!);
    expect(logs.map((l) => l.path)).toEqual(["/customers", "/cards", "/webhooks"]);
    expect(logs[1]).toMatchObject({
      business_id: "business_1",
      mode: "test",
      api_key: "key_1",
      status: 201,
      request_body: { pin: "[redacted]" },
    });
    expect(JSON.stringify(logs)).not.toContain("1234");
  });

  it("a proxied response is logged from its bytes: secrets redacted, not-JSON as null, too large as a marker", async () => {
    const { db, statements } = fakeDb();
    const log = createRequestLog(db, pino({ level: "silent" }), { delayMs: 1_000 });
    serve(
      log,
      "/keys",
      null,
      Buffer.from(JSON.stringify({ data: { id: "k1", secret: "sk_live_abc", nested: [{ token: "t" }] } })),
    );
    serve(log, "/html", null, Buffer.from("<html>oops</html>"));
    serve(log, "/big", null, Buffer.from(JSON.stringify({ data: "x".repeat(20_000) })));
    await log.flush();
    const [keys, html, big] = logsOf(statements[0]!);
    expect(keys!.response_body).toEqual({
      data: { id: "k1", secret: "[redacted]", nested: [{ token: "[redacted]" }] },
    });
    expect(html!.response_body).toBeNull();
    expect(big!.response_body).toEqual({ truncated: true, bytes: 20_011 });
  });

  it("writes on its own after the delay, and at once when the batch is full", async () => {
    const { db, statements } = fakeDb();
    const log = createRequestLog(db, pino({ level: "silent" }), { delayMs: 5, maxBatch: 2 });
    serve(log, "/a", null);
    serve(log, "/b", null);
    serve(log, "/c", null);
    await vi.waitFor(() => expect(statements.map((s) => logsOf(s).length)).toEqual([2, 1]));
  });

  it("a failed write is reported in the service's log, never thrown at a request", async () => {
    const { db } = fakeDb(true);
    const warnings: unknown[] = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => void warnings.push(JSON.parse(line)) });
    const log = createRequestLog(db, logger, { delayMs: 1_000 });
    serve(log, "/customers", null);
    await log.flush();
    expect(warnings).toMatchObject([{ msg: "request logs not written", lost: 1 }]);
  });
});
