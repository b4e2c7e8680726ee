import type { LookupAddress } from "node:dns";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Agent } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { FakeReceiver } from "../../../../test/support/fake-receiver";
import { checkedLookup, createGuardedAgent, type Resolve } from "./target-guard";
import { dispatcherFor, sendSigned } from "./send";

const ENVELOPE = JSON.stringify({
  event: "card.transaction.created",
  data: { id: "c.1" },
  metadata: { event: "evt.1" },
});
const send = (url: string, dispatcher: Parameters<typeof sendSigned>[5]) =>
  sendSigned(url, ENVELOPE, { signingKey: "signing-key" }, "evt.1", 2_000, dispatcher);

/** A resolver that answers every name with `answers` (one list per call, the last repeating) and counts its calls. */
function fakeResolver(...answers: string[][]): Resolve & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string): Promise<LookupAddress[]> => {
    const answer = answers[Math.min(calls.length, answers.length - 1)]!;
    calls.push(hostname);
    return answer.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return Object.assign(resolve, { calls });
}

let receiver: FakeReceiver;
const agents: Agent[] = [];
const guarded = (...args: Parameters<typeof createGuardedAgent>) => {
  const agent = createGuardedAgent(...args);
  agents.push(agent);
  return agent;
};

beforeAll(async () => {
  receiver = new FakeReceiver();
  await receiver.start("/p");
});
afterEach(() => void receiver.answerWith({ status: 200, body: { code: "success" } }));
afterAll(async () => {
  await Promise.all(agents.map((a) => a.close()));
  await receiver.stop();
});

const port = () => new URL(receiver.url).port;

describe("live-mode deliveries connect only to public addresses", () => {
  it("a public name that resolves to 127.0.0.1 is refused before connecting: the internal server gets nothing", async () => {
    const resolve = fakeResolver(["127.0.0.1"]);
    const before = receiver.received.length;
    const result = await send(`http://evil.test:${port()}/p`, guarded({ resolve }));
    expect(result).toMatchObject({
      httpStatus: null,
      body: null,
      error: "connection-error",
      errorDetail: "target address 127.0.0.1 is not allowed in live mode (loopback)",
    });
    expect(resolve.calls).toEqual(["evil.test"]);
    expect(receiver.received.length).toBe(before);
  });

  it("a name answering with a public and an internal address is refused, not tried in turns", async () => {
    const resolve = fakeResolver(["8.8.8.8", "::ffff:10.0.0.1"]);
    const result = await send("http://mixed.test/p", guarded({ resolve }));
    expect(result.errorDetail).toBe("target address ::ffff:10.0.0.1 is not allowed in live mode (IPv4-mapped private)");
  });

  it.each([
    ["127.0.0.1", "loopback"],
    ["[::1]", "loopback"],
    ["[::ffff:127.0.0.1]", "IPv4-mapped loopback"],
  ])("an address written in the URL (%s) is checked too", async (host, range) => {
    const before = receiver.received.length;
    const result = await send(`http://${host}:${port()}/p`, dispatcherFor("live", false));
    const shown = new URL(`http://${host}/`).hostname.replace(/^\[|\]$/g, "");
    expect(result).toMatchObject({
      error: "connection-error",
      errorDetail: `target address ${shown} is not allowed in live mode (${range})`,
    });
    expect(receiver.received.length).toBe(before);
  });

  it("localhost through the system resolver is refused in live mode", async () => {
    const before = receiver.received.length;
    const result = await send(`http://localhost:${port()}/p`, dispatcherFor("live", false));
    expect(result.error).toBe("connection-error");
    expect(result.errorDetail).toMatch(/^target address (127\.0\.0\.1|::1) is not allowed in live mode \(loopback\)$/);
    expect(receiver.received.length).toBe(before);
  });

  it("test mode, and live mode with private targets allowed, deliver to the same local receiver", async () => {
    for (const dispatcher of [dispatcherFor("test", false), dispatcherFor("live", true)]) {
      const before = receiver.received.length;
      const result = await send(`http://localhost:${port()}/p`, dispatcher);
      expect(result).toMatchObject({ httpStatus: 200, error: null });
      expect(receiver.received.length).toBe(before + 1);
    }
    expect(dispatcherFor("test", false)).not.toBe(dispatcherFor("live", false));
    expect(dispatcherFor("staging", false)).toBe(dispatcherFor("live", false)); // an unknown mode counts as live
  });

  it("connects to the address it checked and keeps the name for the Host header", async () => {
    const resolve = fakeResolver(["127.0.0.1"]);
    const agent = guarded({ resolve, isAllowed: (address) => address === "127.0.0.1" });
    const before = receiver.received.length;
    expect((await send(`http://receiver.test:${port()}/p`, agent)).httpStatus).toBe(200);
    expect(receiver.received.length).toBe(before + 1);
    expect(receiver.received.at(-1)!.headers.host).toBe(`receiver.test:${port()}`);
    expect(resolve.calls).toEqual(["receiver.test"]);
  });

  it("does not follow redirects: a 3xx is the answer and its Location is never requested", async () => {
    const elsewhere = new FakeReceiver();
    await elsewhere.start("/internal");
    try {
      receiver.answerWith({ status: 302, headers: { location: elsewhere.url } });
      for (const dispatcher of [
        dispatcherFor("test", false),
        guarded({ resolve: fakeResolver(["127.0.0.1"]), isAllowed: () => true }),
      ]) {
        const result = await send(`http://localhost:${port()}/p`, dispatcher);
        expect(result).toMatchObject({ httpStatus: 302, error: null });
      }
      expect(elsewhere.received).toHaveLength(0);
    } finally {
      await elsewhere.stop();
    }
  });
});

describe("connections", () => {
  const servers: Server[] = [];
  const hits: Record<string, number> = { "127.0.0.1": 0, "127.0.0.2": 0 };
  let connections = 0;
  let keepAlive = false;
  let sharedPort = 0;

  /** A receiver on `host` that counts requests and connections; it closes each connection unless keepAlive. */
  const listen = (host: string, listenPort: number) =>
    new Promise<Server>((resolve, reject) => {
      const server = createServer((req, res) => {
        hits[host]! += 1;
        req.resume();
        req.on("end", () => res.writeHead(200, keepAlive ? {} : { connection: "close" }).end("{}"));
      });
      server.on("connection", () => void (connections += 1));
      server.once("error", reject).listen(listenPort, host, () => resolve(server));
      servers.push(server);
    });

  beforeAll(async () => {
    const allowed = await listen("127.0.0.2", 0);
    sharedPort = (allowed.address() as AddressInfo).port;
    await listen("127.0.0.1", sharedPort);
  });
  afterEach(() => {
    for (const host of Object.keys(hits)) hits[host] = 0;
    connections = 0;
    keepAlive = false;
  });
  afterAll(async () => {
    for (const server of servers) server.closeAllConnections();
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  });

  it("a name that answers allowed, then internal, reaches only the allowed address: each connection is checked", async () => {
    // 127.0.0.2 plays a public address; the receiver closes every connection, so each request connects anew.
    const resolve = fakeResolver(["127.0.0.2"], ["127.0.0.1"]);
    const agent = guarded({ resolve, isAllowed: (address) => address === "127.0.0.2" });
    const first = await send(`http://rebind.test:${sharedPort}/p`, agent);
    const second = await send(`http://rebind.test:${sharedPort}/p`, agent);
    expect(first).toMatchObject({ httpStatus: 200, error: null });
    expect(second).toMatchObject({
      httpStatus: null,
      error: "connection-error",
      errorDetail: "target address 127.0.0.1 is not allowed in live mode (loopback)",
    });
    expect(resolve.calls).toEqual(["rebind.test", "rebind.test"]);
    expect(hits).toEqual({ "127.0.0.2": 1, "127.0.0.1": 0 });
  });

  it("resolves and checks once per connection, not per request: kept-alive connections are reused without a lookup", async () => {
    keepAlive = true;
    const resolve = fakeResolver(["127.0.0.2"]);
    const agent = guarded({ resolve, isAllowed: (address) => address === "127.0.0.2" });
    for (let i = 0; i < 10; i++)
      expect((await send(`http://keepalive.test:${sharedPort}/p`, agent)).httpStatus).toBe(200);
    expect(hits["127.0.0.2"]).toBe(10);
    expect(resolve.calls.length).toBe(connections);
    expect(connections).toBeLessThan(10);
  });
});

describe("checkedLookup", () => {
  const lookup = (resolve: Resolve, all: boolean) =>
    new Promise<{ err: Error | null; address: unknown; family?: number }>((done) =>
      checkedLookup({ resolve })("host.test", { all }, (err, address, family) => done({ err, address, family })),
    );

  it("answers public addresses in the shape asked for", async () => {
    const resolve = fakeResolver(["2606:4700::1111", "1.1.1.1"]);
    expect(await lookup(resolve, true)).toMatchObject({
      err: null,
      address: [
        { address: "2606:4700::1111", family: 6 },
        { address: "1.1.1.1", family: 4 },
      ],
    });
    expect(await lookup(resolve, false)).toMatchObject({ err: null, address: "2606:4700::1111", family: 6 });
  });

  it("fails with the refused address, or with the resolver's error", async () => {
    expect((await lookup(fakeResolver(["1.1.1.1", "169.254.169.254"]), true)).err?.message).toBe(
      "target address 169.254.169.254 is not allowed in live mode (link-local)",
    );
    const failing: Resolve = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND host.test"), { code: "ENOTFOUND" });
    };
    expect((await lookup(failing, false)).err).toMatchObject({ code: "ENOTFOUND" });
  });
});
