import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type Listening } from "@cardhold/platform";
import { captureInProcess } from "./in-process-answer";

/** A service in this process: answers JSON, writes in pieces, or passes an error on. */
function service() {
  const app = express();
  app.use(express.json());
  app.post(
    "/json",
    (req, res) =>
      void res
        .status(201)
        .set("retry-after", "3")
        .json({ echoed: req.body as unknown }),
  );
  app.post("/pieces", (_req, res) => {
    res.type("text/plain");
    res.write("one ");
    res.end("two");
  });
  app.post("/broken", (_req, _res, next) => next(new Error("boom")));
  return app;
}

let gateway: Listening;
let finished = 0;

beforeAll(async () => {
  const app = express();
  const target = service();
  app.use(express.json());
  app.use(async (req, res) => {
    try {
      const answer = await captureInProcess(req, (r, s, done) => {
        s.on("finish", () => finished++);
        target(r, s, done);
      });
      res.json({ statusCode: answer.statusCode, headers: answer.headers, text: answer.body.toString("utf8") });
    } catch (error) {
      res.status(599).json({ rejected: (error as Error).message });
    }
  });
  gateway = await listen(app, 0);
});
afterAll(async () => {
  await gateway?.close();
});

const post = async (path: string, body: unknown) => {
  const res = await fetch(gateway.url + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

describe("captureInProcess", () => {
  it.each([
    {
      path: "/json",
      expected: {
        statusCode: 201,
        text: JSON.stringify({ echoed: { a: 1 } }),
        contentType: /^application\/json/,
      },
    },
    { path: "/pieces", expected: { statusCode: 200, text: "one two", contentType: /^text\/plain/ } },
  ])("collects what the service writes to $path, never sending it", async ({ path, expected }) => {
    const before = finished;
    const res = await post(path, { a: 1 });
    expect(res.status).toBe(200);
    expect(res.body.statusCode).toBe(expected.statusCode);
    expect(res.body.text).toBe(expected.text);
    expect(res.body.headers["content-type"]).toMatch(expected.contentType);
    expect(finished).toBe(before + 1);
  });

  it("keeps the service's headers", async () => {
    expect((await post("/json", {})).body.headers["retry-after"]).toBe("3");
  });

  it("rejects when the service passes an error on instead of answering", async () => {
    const res = await post("/broken", {});
    expect(res).toEqual({ status: 599, body: { rejected: "boom" } });
  });
});
