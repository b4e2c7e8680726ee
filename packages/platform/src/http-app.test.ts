import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { pino } from "pino";
import { AppError, notFound } from "./errors";
import { createHttpApp } from "./http-app";
import { listen } from "./lifecycle";
import { createMetrics } from "./metrics";
import { MAX_JSON_DEPTH } from "./json-limits";
import { redactSecrets, TOO_DEEP } from "./logger";
import { validate } from "./validate";
import { z } from "zod";

async function withApp(internalToken: string | undefined, run: (url: string) => Promise<void>) {
  const app = createHttpApp({
    name: "test",
    logger: pino({ level: "silent" }),
    metrics: createMetrics("test", false),
    bodyLimit: "1kb",
    internalToken,
    readiness: { database: async () => true, broken: async () => Promise.reject(new Error("down")) },
    routes: (app) => {
      app.post("/echo", (req, res) => void res.json(validate(z.object({ a: z.number(), b: z.string() }), req.body)));
      app.get("/missing", () => {
        throw notFound("Thing", "t.1");
      });
      app.get("/exact", () => {
        throw new AppError(400, "invalid-filter", "x", undefined, { statusCode: 400, message: "exact" });
      });
      app.get("/things/:id", (req, res) => void res.json({ id: req.params.id }));
      app.get("/boom", () => {
        throw new Error("database password is hunter2");
      });
      app.get("/database-down", () => {
        throw Object.assign(new Error("connect ECONNREFUSED /tmp/pg/.s.PGSQL.5432"), { code: "ECONNREFUSED" });
      });
      app.get("/database-recovering", () => {
        throw Object.assign(new Error("the database system is not yet accepting connections"), { code: "57P03" });
      });
    },
  });
  const server = await listen(app, 0);
  try {
    await run(server.url);
  } finally {
    await server.close();
  }
}

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", body, headers: { "content-type": "application/json", ...headers } });

describe("http app", () => {
  it("turns errors into the error model and never leaks internals", async () => {
    await withApp(undefined, async (url) => {
      const invalid = await post(`${url}/echo`, JSON.stringify({ a: "x" }));
      expect(invalid.status).toBe(400);
      const body = (await invalid.json()) as any;
      expect(body).toMatchObject({ statusCode: 400, code: "invalid-request" });
      expect(body.errors.map((e: { path: string }) => e.path)).toEqual(["a", "b"]);
      expect(await (await fetch(`${url}/missing`)).json()).toEqual({
        statusCode: 404,
        code: "not-found",
        message: "Thing t.1 was not found",
      });
      expect(await (await fetch(`${url}/exact`)).json()).toEqual({ statusCode: 400, message: "exact" });
      const boom = await fetch(`${url}/boom`);
      expect(boom.status).toBe(500);
      const text = await boom.text();
      expect(text).not.toContain("hunter2");
      expect(JSON.parse(text)).toMatchObject({
        statusCode: 500,
        code: "internal-error",
        errorId: expect.stringMatching(/^err\./),
      });
      for (const path of ["/database-down", "/database-recovering"]) {
        const down = await fetch(url + path);
        expect(down.status, path).toBe(503);
        expect(down.headers.get("retry-after")).toBe("1");
        const downText = await down.text();
        expect(downText).not.toContain("PGSQL");
        expect(JSON.parse(downText)).toMatchObject({
          statusCode: 503,
          code: "service-unavailable",
          errorId: expect.stringMatching(/^err\./),
        });
      }
      expect((await post(`${url}/echo`, "{")).status).toBe(400);
      expect((await post(`${url}/echo`, JSON.stringify({ b: "x".repeat(2000) }))).status).toBe(413);
      expect((await fetch(`${url}/nope`)).status).toBe(404);
    });
  });

  it("refuses bodies nested deeper than the limit, naming it, and keeps serving", async () => {
    await withApp(undefined, async (url) => {
      const nested = (levels: number) => "[".repeat(levels) + "]".repeat(levels);
      for (const body of [`{"a":${nested(6000)}}`.slice(0, 1000), `{"a":${nested(MAX_JSON_DEPTH)}}`]) {
        const answer = await post(`${url}/echo`, body);
        expect(answer.status).toBe(400);
        expect(((await answer.json()) as { message: string }).message).toContain(`${MAX_JSON_DEPTH} levels`);
      }
      const atTheLimit = await post(`${url}/echo`, `{"a":${nested(MAX_JSON_DEPTH - 1)}}`);
      expect(((await atTheLimit.json()) as { code: string }).code).toBe("invalid-request");
      const tooLarge = await post(`${url}/echo`, JSON.stringify({ b: "x".repeat(2000) }));
      expect(((await tooLarge.json()) as { message: string }).message).toBe(
        "Request body is larger than the limit of 1kb",
      );
      expect((await post(`${url}/echo`, JSON.stringify({ a: 1, b: "ok" }))).status).toBe(200);
    });
  });

  it("answers 400, never 500, to a NUL character or a body that does not match its Content-Encoding", async () => {
    await withApp(undefined, async (url) => {
      const nul = await post(`${url}/echo`, '{"a":1,"b":"x\\u0000y"}');
      expect(nul.status).toBe(400);
      expect(((await nul.json()) as { message: string }).message).toContain("NUL");
      const lone = await post(`${url}/echo`, '{"a":1,"b":"x\\ud800"}');
      expect(lone.status).toBe(400);
      expect((await post(`${url}/echo`, '{"a":1,"b":"\\ud83d\\ude00"}')).status).toBe(200);
      for (const encoding of ["gzip", "deflate", "br"]) {
        const garbled = await post(`${url}/echo`, '{"a":1,"b":"x"}', { "content-encoding": encoding });
        expect(garbled.status).toBe(400);
      }
      const gzipped = await fetch(`${url}/echo`, {
        method: "POST",
        headers: { "content-type": "application/json", "content-encoding": "gzip" },
        body: gzipSync('{"a":1,"b":"x"}'),
      });
      expect(gzipped.status).toBe(200);
    });
  });

  it("answers 400, never 500, to a path that is not percent-encoded UTF-8 or a URL with %00", async () => {
    await withApp(undefined, async (url) => {
      for (const path of [
        "/things/%C0%AF",
        "/things/%ED%A0%80",
        "/things/%E0%A4%A",
        "/things/%00",
        "/things/x?filter=a%00b",
      ]) {
        const answer = await fetch(url + path);
        expect(answer.status, path).toBe(400);
        expect(((await answer.json()) as { code: string }).code).toBe("invalid-request");
      }
      expect(await (await fetch(`${url}/things/%F0%9F%98%80`)).json()).toEqual({ id: "😀" });
    });
  });

  it("reports readiness per check and serves metrics", async () => {
    await withApp(undefined, async (url) => {
      const ready = await fetch(`${url}/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: "not-ready", checks: { database: true, broken: false } });
      expect(await (await fetch(`${url}/metrics`)).text()).toContain("http_request_duration_seconds");
    });
  });

  it("requires the internal token on everything but health, readiness and metrics", async () => {
    await withApp("internal-token-123456", async (url) => {
      expect((await fetch(`${url}/health`)).status).toBe(200);
      expect((await fetch(`${url}/missing`)).status).toBe(401);
      expect((await fetch(`${url}/missing`, { headers: { "x-internal-token": "wrong-token-12345678" } })).status).toBe(
        401,
      );
      expect((await fetch(`${url}/missing`, { headers: { "x-internal-token": "internal-token-123456" } })).status).toBe(
        404,
      );
    });
  });
});

describe("redactSecrets", () => {
  it("cuts values nested deeper than 20 levels, so the copy always serializes", () => {
    let deep: unknown = "leaf";
    for (let i = 0; i < 10_000; i++) deep = [deep];
    const text = JSON.stringify(redactSecrets({ name: deep }));
    expect(text).toContain(TOO_DEEP);
    expect(text.length).toBeLessThan(200);
  });

  it("replaces secret-looking values at any depth", () => {
    expect(
      redactSecrets({ name: "n", signingKey: "s", nested: [{ pan: "4111", cvv: "123", keep: 1 }], apiKey: "k" }),
    ).toEqual({
      name: "n",
      signingKey: "[redacted]",
      nested: [{ pan: "[redacted]", cvv: "[redacted]", keep: 1 }],
      apiKey: "[redacted]",
    });
  });
});
