import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Request } from "express";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createProxy } from "./proxy";
import type { Upstream } from "../routing";

let server: Server | undefined;
afterEach(() => server?.close());

/** A service that keeps idle connections 65 s and says so, recording when each connection closed. */
async function serviceKeeping65s() {
  const closedAt: number[] = [];
  server = createServer((_req, res) => res.end("{}"));
  server.keepAliveTimeout = 65_000;
  server.on("connection", (socket) => socket.on("close", () => closedAt.push(Date.now())));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, closedAt };
}

const getCustomers = () =>
  ({
    method: "GET",
    originalUrl: "/customers",
    caller: { businessId: "b.1", mode: "test", keyId: "k.1" },
    requestId: "req.1",
    receivedAt: Date.now(),
    header: () => undefined,
    log: pino({ level: "silent" }),
  }) as unknown as Request;

describe("the gateway's connections to a service", () => {
  it("are closed by the gateway once idle for its own time, not kept for what the service advertises", async () => {
    const service = await serviceKeeping65s();
    const upstreams = { "customer-service": service.url } as Record<Upstream, string>;
    const proxy = createProxy({ upstreams, internalToken: "t".repeat(32), idleConnectionMs: 1_000 });
    try {
      const answeredAt = Date.now();
      expect((await proxy.answerOf(getCustomers(), "customer-service")).statusCode).toBe(200);
      await expect.poll(() => service.closedAt.length, { timeout: 5_000, interval: 100 }).toBe(1);
      // undici's idle clock ticks every ~0.5 s: closed within a few ticks of the 1 s, never at the service's 65 s.
      expect(service.closedAt[0]! - answeredAt).toBeLessThan(4_000);
    } finally {
      await proxy.close();
    }
  });
});
