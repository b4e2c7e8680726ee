import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import { CutOff, httpJson, loadConnections, openConnections } from "../support/crash-load";
import { listenOnFreePort } from "./forwarding-hop";

describe("the load's HTTP client", () => {
  it("reads a JSON answer, and reports a refused connection as cut off and a silent server as timed out", async () => {
    const held: Array<() => void> = [];
    const server = createServer((req, res) => {
      if (req.url === "/silent") return void held.push(() => res.destroy());
      res.writeHead(201, { "content-type": "application/json" }).end('{"data":{"id":"x"}}');
    });
    const port = await listenOnFreePort(server);
    const call = httpJson(
      () => `http://127.0.0.1:${port}`,
      () => "key",
      300,
    );
    try {
      expect(await call("POST", "/", { a: 1 })).toEqual({ status: 201, body: { data: { id: "x" } } });
      await expect(call("GET", "/silent")).rejects.toMatchObject({ name: "TimeoutError" });
      const closed = httpJson(
        () => "http://127.0.0.1:1",
        () => "key",
      );
      await expect(closed("GET", "/")).rejects.toBeInstanceOf(CutOff);
    } finally {
      for (const drop of held) drop();
      server.close();
    }
  });

  it("opens the connections asked for before a load, and keeps them", async () => {
    let accepted = 0;
    const server = createServer((_req, res) => setTimeout(() => res.end("ok"), 20));
    server.on("connection", () => accepted++);
    const port = await listenOnFreePort(server);
    const connections = loadConnections();
    try {
      await openConnections(connections, `http://127.0.0.1:${port}`, 20);
      expect(accepted).toBe(20);
      await new Promise((resolve) => setTimeout(resolve, 50)); // a connection is free again a tick after its answer
      const call = httpJson(
        () => `http://127.0.0.1:${port}`,
        () => "key",
        5_000,
        connections,
      );
      await Promise.all(Array.from({ length: 20 }, () => call("GET", "/")));
      expect(accepted).toBe(20);
    } finally {
      await connections.close();
      server.close();
    }
  });
});
