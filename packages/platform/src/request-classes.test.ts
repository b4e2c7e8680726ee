import { describe, expect, it } from "vitest";
import { pino } from "pino";
import type { Express, Request } from "express";
import { createHttpApp } from "./http-app";
import { listen } from "./lifecycle";
import { createMetrics } from "./metrics";
import { AppRequest, AppResponse } from "./request-classes";

const appWith = (name: string, routes: (app: Express) => void) =>
  createHttpApp({
    name,
    logger: pino({ level: "silent" }),
    metrics: createMetrics(name, false),
    readiness: {},
    routes,
  });

describe("requests born with express's prototypes", () => {
  it("keeps the prototype a request was born with, and gives each app it enters its own app", async () => {
    const seen: Array<{ bornAs: boolean; sameApp: boolean; query: unknown; path: string }> = [];
    const record = (req: Request, app: () => Express) =>
      seen.push({
        bornAs: Object.getPrototypeOf(req) === AppRequest.prototype && req.res instanceof AppResponse,
        sameApp: req.app === app() && req.res!.app === app(),
        query: req.query,
        path: req.path,
      });
    const inner = appWith("inner", (app) =>
      app.get("/things", (req, res) => {
        record(req, () => inner);
        res.json({ in: "inner" });
      }),
    );
    const outer = appWith("outer", (app) =>
      app.use((req, res, next) => {
        record(req, () => outer);
        inner(req, res, next);
      }),
    );
    const server = await listen(outer, 0);
    try {
      const answer = await fetch(`${server.url}/things?a[b]=1`);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ in: "inner" });
      expect(answer.headers.get("x-powered-by")).toBeNull();
      // The extended query parser and the path work as before; no prototype was swapped in either app.
      expect(seen).toEqual([
        { bornAs: true, sameApp: true, query: { a: { b: "1" } }, path: "/things" },
        { bornAs: true, sameApp: true, query: { a: { b: "1" } }, path: "/things" },
      ]);
    } finally {
      await server.close();
    }
  });

  it("still serves a request made by another server (express's own handle)", async () => {
    const app = appWith("plain", (app) =>
      app.get("/x", (req, res) => void res.json({ born: req instanceof AppRequest, app: req.app === app })),
    );
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const { port } = server.address() as { port: number };
      expect(await (await fetch(`http://127.0.0.1:${port}/x`)).json()).toEqual({ born: false, app: true });
    } finally {
      server.close();
    }
  });

  it("answers in the error model when the app's own error handler fails", async () => {
    const app = appWith("failing", (app) =>
      app.get("/x", (_req, res) => {
        // A response whose json throws makes the error handler throw too: only the last resort answers.
        res.json = () => {
          throw new Error("cannot serialize");
        };
        throw new Error("first failure");
      }),
    );
    const server = await listen(app, 0);
    try {
      const answer = await fetch(`${server.url}/x`);
      expect(answer.status).toBe(500);
      expect(await answer.json()).toEqual({
        statusCode: 500,
        code: "internal-error",
        message: "Internal server error",
      });
    } finally {
      await server.close();
    }
  });
});
