import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually";
import { OPERATOR } from "./harness";
import { signIn, startConsoleGateway, type ConsoleGateway } from "./console-support";

interface StreamEvent {
  event: string;
  data: string;
}

/** An open event stream: the events and comments read so far. */
async function openStream(gw: ConsoleGateway, cookie: string | undefined, query = "") {
  const abort = new AbortController();
  const res = await fetch(`${gw.url}/console/api/stream/card-authorizations${query}`, {
    headers: cookie ? { cookie } : {},
    signal: abort.signal,
  });
  const events: StreamEvent[] = [];
  const comments: string[] = [];
  let ended = false;
  const read = async () => {
    if (!res.body || res.status !== 200) return;
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let at: number;
        while ((at = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const lines = block.split("\n");
          comments.push(...lines.filter((l) => l.startsWith(":")));
          const event = lines.find((l) => l.startsWith("event: "))?.slice(7);
          const data = lines.find((l) => l.startsWith("data: "))?.slice(6);
          if (event && data !== undefined) events.push({ event, data });
        }
      }
    } catch {
      // aborted
    }
    ended = true;
  };
  void read();
  return {
    res,
    events,
    comments,
    ended: () => ended,
    authorizations: () =>
      events
        .filter((e) => e.event === "card-authorization")
        .map((e) => JSON.parse(e.data) as { code: string; data: any }),
    close: () => abort.abort(),
  };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const inProcess of [false, true]) {
  describe(`the live stream of card authorizations (the service ${inProcess ? "in process" : "over HTTP"})`, () => {
    let gw: ConsoleGateway;
    beforeAll(async () => {
      gw = await startConsoleGateway({
        inProcess,
        trustProxy: "loopback",
        consoleStream: { pollMs: 100, keepAliveMs: 300 },
      });
    });
    afterAll(async () => {
      await gw?.stop();
    });

    it("delivers an authorization created after it opened, and its change; not older ones, not unmatched ones", async () => {
      const { businessId, testKey } = await gw.newBusiness("Stream");
      const scope = { businessId, mode: "test" };
      gw.fake.put(scope, { id: "c.auth.before", status: "approved" });
      const { cookie } = await signIn(gw, testKey);
      const stream = await openStream(gw, cookie, "?filter=status:approved");
      expect(stream.res.status).toBe(200);
      expect(stream.res.headers.get("content-type")).toMatch(/^text\/event-stream/);
      expect(stream.res.headers.get("cache-control")).toBe("no-store");

      await pause(50);
      gw.fake.put(scope, { id: "c.auth.new", status: "approved" });
      gw.fake.put(scope, { id: "c.auth.declined", status: "declined" });
      gw.fake.put({ businessId, mode: "live" }, { id: "c.auth.live", status: "approved" });
      await eventually(() => expect(stream.authorizations().map((a) => a.data.id)).toEqual(["c.auth.new"]), 5_000);
      expect(stream.authorizations()[0]).toMatchObject({
        code: "success",
        data: { id: "c.auth.new", status: "approved" },
      });

      await pause(20);
      const changed = gw.fake.put(scope, { id: "c.auth.new", status: "approved" });
      await eventually(() => expect(stream.authorizations()).toHaveLength(2), 5_000);
      expect(stream.authorizations()[1]!.data.updatedAt).toBe(changed.updatedAt);
      // Polled with the client's filter and the cursor, with the session's business, mode and key.
      const polls = gw.fake.forwarded.filter((f) => f.url.startsWith("/card-authorizations?"));
      expect(decodeURIComponent(polls.at(-1)!.url.replaceAll("+", " "))).toMatch(
        /filter=status:approved updatedAt\|gted\|\d{4}-\d\d-\d\dT[\d:.]+Z&sort=updatedAt/,
      );
      expect(polls.at(-1)!.headers["x-business-id"]).toBe(businessId);
      await pause(400);
      expect(stream.comments).toContain(": keepalive");
      expect(stream.authorizations()).toHaveLength(2);
      stream.close();
    });

    it("ends the stream with a session-ended event when the session ends (sign-out or a revoked key)", async () => {
      const { businessId, testKey } = await gw.newBusiness("Stream ends");
      const first = await signIn(gw, testKey);
      const stream = await openStream(gw, first.cookie);
      const out = await gw.call("DELETE", "/console/api/session", {
        headers: { cookie: first.cookie, "x-csrf-token": first.csrf },
      });
      expect(out.status).toBe(204);
      await eventually(() => expect(stream.ended()).toBe(true), 5_000);
      expect(stream.events.at(-1)).toMatchObject({ event: "session-ended" });

      const key = await gw.call("POST", `/admin/businesses/${businessId}/keys`, {
        headers: { "x-operator-token": OPERATOR },
        body: { mode: "test", permissions: ["read"] },
      });
      const second = await signIn(gw, key.body.data.key);
      const other = await openStream(gw, second.cookie);
      await gw.call("DELETE", `/admin/businesses/${businessId}/keys/${key.body.data.id}`, {
        headers: { "x-operator-token": OPERATOR },
      });
      await eventually(() => expect(other.ended()).toBe(true), 5_000);
      expect(JSON.parse(other.events.at(-1)!.data).message).toMatch(/revoked/);
    });

    it("refuses a sixth open stream of one session with 429, and takes one again once a stream closes", async () => {
      const { testKey } = await gw.newBusiness("Stream cap");
      const { cookie } = await signIn(gw, testKey);
      const open = [];
      for (let i = 0; i < 5; i++) open.push(await openStream(gw, cookie));
      expect(open.map((s) => s.res.status)).toEqual([200, 200, 200, 200, 200]);
      const sixth = await openStream(gw, cookie);
      expect(sixth.res.status).toBe(429);
      open[0]!.close();
      await eventually(async () => {
        const again = await openStream(gw, cookie);
        again.close();
        expect(again.res.status).toBe(200);
      }, 5_000);
      for (const s of open) s.close();
    });

    it("needs a session (401), the read permission (403) and a filter the list reads (400)", async () => {
      expect((await openStream(gw, undefined)).res.status).toBe(401);
      const { businessId, testKey } = await gw.newBusiness("Stream refusals");
      const writer = await gw.call("POST", `/admin/businesses/${businessId}/keys`, {
        headers: { "x-operator-token": OPERATOR },
        body: { mode: "test", permissions: ["write"] },
      });
      const writeOnly = await signIn(gw, writer.body.data.key);
      const forbidden = await openStream(gw, writeOnly.cookie);
      expect(forbidden.res.status).toBe(403);
      const { cookie } = await signIn(gw, testKey);
      const bad = await openStream(gw, cookie, "?filter=" + encodeURIComponent("status~~x"));
      expect(bad.res.status).toBe(400);
      expect(((await bad.res.json()) as { message: string }).message).toMatch(/filter/);
      const notText = await openStream(gw, cookie, "?filter[a]=b");
      expect(notText.res.status).toBe(400);
      // The refused streams took no slot: five still open.
      const open = [];
      for (let i = 0; i < 5; i++) open.push(await openStream(gw, cookie));
      expect(open.map((s) => s.res.status)).toEqual([200, 200, 200, 200, 200]);
      for (const s of open) s.close();
    });
  });
}
