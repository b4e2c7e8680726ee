import { createServer, request } from "node:http";
import { describe, expect, it } from "vitest";
import { endToEndHeaders, listenOnFreePort } from "./forwarding-hop";
import { startRoundRobinProxy } from "./round-robin-proxy";

describe("endToEndHeaders", () => {
  it("drops the connection's own headers and keeps the message's", () => {
    expect(
      endToEndHeaders({
        connection: "keep-alive, x-hop",
        "keep-alive": "timeout=65",
        "transfer-encoding": "chunked",
        "x-hop": "1",
        "content-type": "application/json",
        "x-request-id": "req.1",
      }),
    ).toEqual({ "content-type": "application/json", "x-request-id": "req.1" });
  });
});

describe("a balancer in front of an upstream that keeps connections 65 s", () => {
  it("tells its client its own idle timeout, never the upstream's", async () => {
    const upstream = createServer((_req, res) => res.end("ok"));
    upstream.keepAliveTimeout = 65_000;
    const upstreamPort = await listenOnFreePort(upstream);
    const proxy = await startRoundRobinProxy([`http://127.0.0.1:${upstreamPort}`]);
    try {
      const keepAlive = await new Promise<string | undefined>((resolve, reject) => {
        request(`${proxy.url}/`, { headers: { connection: "keep-alive" } }, (answer) => {
          answer.resume();
          resolve(String(answer.headers["keep-alive"]));
        })
          .on("error", reject)
          .end();
      });
      expect(keepAlive).toBe("timeout=660");
    } finally {
      await proxy.close();
      upstream.close();
    }
  });
});
