import { createConnection } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { KEEP_ALIVE_TIMEOUT_MS, listen, type Listening } from "./lifecycle";

let server: Listening | undefined;
afterEach(async () => server?.close());

describe("listen", () => {
  it("keeps an idle keep-alive connection open longer than a balancer's usual 60 s idle timeout", async () => {
    server = await listen(express(), 0);
    expect(server.server.keepAliveTimeout).toBe(KEEP_ALIVE_TIMEOUT_MS);
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
    expect(server.server.headersTimeout).toBeGreaterThan(server.server.keepAliveTimeout);
  });

  it("still closes at once on stop, idle keep-alive connections included", async () => {
    const app = express();
    app.get("/", (_req, res) => void res.send("ok"));
    server = await listen(app, 0);
    const socket = createConnection(server.port, "127.0.0.1");
    const closed = new Promise((resolve) => socket.once("close", resolve));
    socket.write("GET / HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n");
    await new Promise((resolve) => socket.once("data", resolve));
    const started = Date.now();
    await server.close();
    await closed;
    expect(Date.now() - started).toBeLessThan(1_500);
    server = undefined;
  });
});
