import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatcherFor, sendSigned } from "./send";

const ENVELOPE = JSON.stringify({ event: "card.authorization.request", data: { id: "ca.1" } });
const send = (path: string, timeoutMs: number) =>
  sendSigned(
    `${base}${path}`,
    ENVELOPE,
    { signingKey: "signing-key" },
    "evt.1",
    timeoutMs,
    dispatcherFor("test", true),
  );

let server: Server;
let base = "";
const trickling: ServerResponse[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    if (req.url === "/fast") return void res.writeHead(200, { "content-type": "application/json" }).end("{}");
    // Headers at once, then a byte every 50 ms for ever: neither undici's headers timeout nor its body (idle)
    // timeout ends this request; only the delivery's own time limit does.
    res.writeHead(200, { "content-type": "application/json" });
    trickling.push(res);
    const timer = setInterval(() => res.write(" "), 50);
    res.on("close", () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of trickling) res.destroy();
  await new Promise((resolve) => server.close(resolve));
});

describe("a delivery's time limit", () => {
  it("ends a receiver that keeps the answer coming too slowly at the limit, as a timeout", async () => {
    const result = await send("/trickle", 300);
    expect(result).toMatchObject({ httpStatus: null, error: "timeout", errorDetail: "no answer within 300 ms" });
    expect(result.latencyMs).toBeGreaterThanOrEqual(290);
    expect(result.latencyMs).toBeLessThan(2_000);
  });

  it("answers a fast receiver and leaves no timer of its limit behind", async () => {
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;
    await send("/fast", 60_000); // the connection and undici's own timers exist from here on
    const before = timers();
    const result = await send("/fast", 60_000);
    expect(result).toMatchObject({ httpStatus: 200, error: null, body: "{}" });
    expect(timers()).toBe(before);
    // A second delivery on the same kept-alive connection is not hit by an earlier one's limit.
    expect(await send("/fast", 200)).toMatchObject({ httpStatus: 200, error: null });
  });
});
