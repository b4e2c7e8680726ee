import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { approve, approveCheck } from "./answers.js";
import { parseEvent, UnsupportedEvent, type CardholdEvent } from "./events.js";
import { createReceiver, type Handlers } from "./receiver.js";
import { memoryDeliveryStore } from "./store.js";

const FIXTURES = new URL("../../../test/fixtures/", import.meta.url);
const TEST_KEY = "test-mode-signing-key-0123456789";
const LIVE_KEY = "live-mode-signing-key-0123456789";
const sign = (body: string, key: string) => createHmac("sha512", key).update(body).digest("hex");

let seq = 0;
/** The closed fixture as a new event; `mode` undefined leaves the field out (a sender from before it). */
function closedEvent(mode: string | undefined): string {
  const fixture = JSON.parse(readFileSync(new URL("event-card.authorization.closed.json", FIXTURES), "utf8"));
  const event = { ...fixture, metadata: { ...fixture.metadata, event: `evt.mode${++seq}` } };
  return JSON.stringify(mode === undefined ? event : { ...event, mode });
}

/** Handlers that record the mode each event reached them with. */
function recording(seen: Array<CardholdEvent["mode"]>): Handlers {
  return {
    check: () => approveCheck(1, "Ada"),
    capture: () => approve(),
    closed: (_authorization, { event }) => (seen.push(event.mode), approve()),
    amountUpdate: () => approve(),
    reversal: () => approve(),
  };
}

describe("the envelope's mode", () => {
  it("is parsed and exposed, optional for senders from before it, and only test or live", () => {
    expect(parseEvent(JSON.parse(closedEvent("live"))).mode).toBe("live");
    expect(parseEvent(JSON.parse(closedEvent("test"))).mode).toBe("test");
    expect(parseEvent(JSON.parse(closedEvent(undefined))).mode).toBeUndefined();
    expect(() => parseEvent(JSON.parse(closedEvent("production")))).toThrow(UnsupportedEvent);
  });

  it("reaches the handlers with a single key, whatever it says", async () => {
    const seen: Array<CardholdEvent["mode"]> = [];
    const receiver = createReceiver({ signingKey: LIVE_KEY, store: memoryDeliveryStore(), handlers: recording(seen) });
    for (const mode of ["live", undefined]) {
      const body = closedEvent(mode);
      expect((await receiver.handle(body, sign(body, LIVE_KEY))).status).toBe(200);
    }
    expect(seen).toEqual(["live", undefined]);
  });
});

describe("signing keys by mode", () => {
  const receiverFor = (seen: Array<CardholdEvent["mode"]>) =>
    createReceiver({
      signingKey: { test: TEST_KEY, live: [LIVE_KEY, "next-live-signing-key-0123"] },
      store: memoryDeliveryStore(),
      handlers: recording(seen),
    });

  it("accepts each mode's events under that mode's keys", async () => {
    const seen: Array<CardholdEvent["mode"]> = [];
    const receiver = receiverFor(seen);
    const live = closedEvent("live");
    const test = closedEvent("test");
    const rolled = closedEvent("live");
    expect(await receiver.handle(live, sign(live, LIVE_KEY))).toEqual({ status: 200, body: { action: "approve" } });
    expect(await receiver.handle(test, sign(test, TEST_KEY))).toEqual({ status: 200, body: { action: "approve" } });
    expect((await receiver.handle(rolled, sign(rolled, "next-live-signing-key-0123"))).status).toBe(200);
    expect(seen).toEqual(["live", "test", "live"]);
  });

  it("refuses an event that says live but is signed with the test key, and the reverse", async () => {
    const seen: Array<CardholdEvent["mode"]> = [];
    const receiver = receiverFor(seen);
    const forged = closedEvent("live");
    const wrong = closedEvent("test");
    expect(await receiver.handle(forged, sign(forged, TEST_KEY))).toEqual({
      status: 400,
      body: { error: "Invalid Signature" },
    });
    expect(await receiver.handle(wrong, sign(wrong, LIVE_KEY))).toEqual({
      status: 400,
      body: { error: "Invalid Signature" },
    });
    expect(seen).toEqual([]);
  });

  it("takes the mode from the key that verified an event without one", async () => {
    const seen: Array<CardholdEvent["mode"]> = [];
    const receiver = receiverFor(seen);
    const fromTest = closedEvent(undefined);
    const fromLive = closedEvent(undefined);
    expect((await receiver.handle(fromTest, sign(fromTest, TEST_KEY))).status).toBe(200);
    expect((await receiver.handle(fromLive, sign(fromLive, LIVE_KEY))).status).toBe(200);
    expect(seen).toEqual(["test", "live"]);
  });

  it("refuses a malformed key option at once", () => {
    const handlers = recording([]);
    const store = memoryDeliveryStore();
    for (const signingKey of [
      {},
      { test: "" },
      { live: [] },
      { production: LIVE_KEY },
      { test: TEST_KEY, staging: "x" },
    ] as never[]) {
      expect(() => createReceiver({ signingKey, store, handlers }), JSON.stringify(signingKey)).toThrow(TypeError);
    }
    expect(() => createReceiver({ signingKey: { live: LIVE_KEY }, store, handlers })).not.toThrow();
  });
});
