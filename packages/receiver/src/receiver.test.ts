import { createHmac } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import type { Server } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approve, approveCheck, decline } from "./answers.js";
import { parseEvent, UnsupportedEvent } from "./events.js";
import { receiverRouter } from "./http-handler.js";
import { createReceiver } from "./receiver.js";
import { verifySignature } from "./signature.js";
import { memoryDeliveryStore } from "./store.js";

const FIXTURES = new URL("../../../test/fixtures/", import.meta.url);
const KEY = "receiver-test-signing-key";
const sign = (body: string, key = KEY) => createHmac("sha512", key).update(body).digest("hex");
const fixture = (name: string) => readFileSync(new URL(name, FIXTURES), "utf8");

describe("typed events", () => {
  it("parses every event fixture of the original interface", () => {
    const files = readdirSync(FIXTURES).filter((f) => f.startsWith("event-"));
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const file of files) {
      const event = parseEvent(JSON.parse(fixture(file)));
      expect(file).toContain(event.event);
    }
  });

  it("refuses unknown kinds and malformed bodies", () => {
    const closed = JSON.parse(fixture("event-card.authorization.closed.json"));
    expect(() => parseEvent({ ...closed, event: "card.unknown" })).toThrow(UnsupportedEvent);
    expect(() => parseEvent({ ...closed, data: { ...closed.data, amount: "50000" } })).toThrow(UnsupportedEvent);
    expect(() => parseEvent("nope")).toThrow(UnsupportedEvent);
  });
});

describe("signatures", () => {
  it("accepts only the HMAC-SHA512 of the exact bytes under the key", () => {
    const body = fixture("event-card.transaction.created.json");
    expect(verifySignature(body, sign(body), KEY)).toBe(true);
    expect(verifySignature(body + " ", sign(body), KEY)).toBe(false);
    expect(verifySignature(body, sign(body, "other"), KEY)).toBe(false);
    expect(verifySignature(body, undefined, KEY)).toBe(false);
    expect(verifySignature(body, "zz", KEY)).toBe(false);
  });
});

describe("answers", () => {
  it("can only approve a check with an integer balance and a holder name", () => {
    expect(approveCheck(1000, "Ada")).toEqual({ action: "approve", cardBalance: 1000, cardHolderName: "Ada" });
    expect(() => approveCheck(10.5, "Ada")).toThrow(RangeError);
    expect(() => approveCheck(10, "")).toThrow(RangeError);
  });
});

describe("receiver over HTTP (express)", () => {
  let server: Server;
  let url = "";
  const applied: string[] = [];

  beforeAll(async () => {
    const receiver = createReceiver({
      signingKey: KEY,
      store: memoryDeliveryStore(),
      handlers: {
        check: () => approveCheck(5000, "Ada Obi"),
        capture: (auth) => {
          applied.push(`capture:${auth.id}`);
          return auth.amount > 100_000 ? decline("insufficient-funds") : approve();
        },
        closed: (auth) => {
          applied.push(`closed:${auth.id}:${auth.status}`);
          return approve();
        },
        amountUpdate: () => approve(),
        reversal: () => approve(),
        transaction: (txn) => void applied.push(`txn:${txn.id}`),
      },
    });
    const app = express();
    app.use("/webhooks/cardhold", receiverRouter(receiver));
    await new Promise<void>((resolve) => {
      server = app.listen(0, "127.0.0.1", () => resolve());
    });
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/webhooks/cardhold`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const post = async (body: string, signature = sign(body)) => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "service-signature": signature },
      body,
    });
    return { status: res.status, body: await res.json() };
  };
  const capture = (id: string, amount: number, eventId: string) =>
    JSON.stringify({
      event: "card.authorization.request",
      data: {
        id,
        object: "card.authorization",
        card: "c.1",
        type: "capture",
        status: "pending",
        amount,
        fees: 0,
        currency: "NGN",
        createdAt: "2023-03-14T18:22:51.000Z",
      },
      metadata: { sentAt: "2023-03-14T18:22:51.000Z", event: eventId },
    });

  it("rejects a bad signature and a body that is not an event with the reference receiver's 400s", async () => {
    const body = fixture("event-card.authorization.closed.json");
    expect(await post(body, sign(body, "wrong"))).toEqual({ status: 400, body: { error: "Invalid Signature" } });
    const notAnEvent = JSON.stringify({ hello: "world" });
    expect(await post(notAnEvent)).toEqual({ status: 400, body: { error: "Invalid Request" } });
  });

  it("answers captures, declines a repeated capture, and replays the first answer for a resent event", async () => {
    expect((await post(capture("c.auth.A", 500, "evt.1"))).body).toEqual({ action: "approve" });
    expect((await post(capture("c.auth.B", 500_000, "evt.2"))).body).toEqual({
      action: "decline",
      code: "insufficient-funds",
    });
    expect((await post(capture("c.auth.A", 500, "evt.3"))).body).toEqual({
      action: "decline",
      code: "duplicate-transaction",
    });
    expect((await post(capture("c.auth.A", 500, "evt.1"))).body).toEqual({ action: "approve" });
  });

  it("declines a capture request that comes after its authorization was closed (its answer would have been too late)", async () => {
    const closedFirst = JSON.stringify({
      event: "card.authorization.closed",
      data: {
        id: "c.auth.LATE",
        object: "card.authorization",
        card: "c.1",
        type: "capture",
        status: "declined",
        amount: 700,
        fees: 0,
        currency: "NGN",
        createdAt: "2023-03-14T18:22:51.000Z",
      },
      metadata: { sentAt: "2023-03-14T18:22:56.000Z", event: "evt.late.closed" },
    });
    await post(closedFirst);
    expect((await post(capture("c.auth.LATE", 700, "evt.late.request"))).body).toEqual({
      action: "decline",
      code: "duplicate-transaction",
    });
    expect(applied).not.toContain("capture:c.auth.LATE");
  });

  it("applies a closed event once however often it is sent, and acknowledges transactions", async () => {
    const closed = fixture("event-card.authorization.closed.json");
    expect((await post(closed)).body).toEqual({ action: "approve" });
    expect((await post(closed)).body).toEqual({ action: "approve" });
    expect(applied.filter((a) => a.startsWith("closed:c.auth.2tX"))).toEqual([
      "closed:c.auth.2tXJoWXy2NZNFU9mY:approved",
    ]);
    expect((await post(fixture("event-card.transaction.created.json"))).body).toEqual({ code: "success" });
  });

  it("acknowledges a webhook's test event with 200; one without its webhookId is not an event", async () => {
    const test = (data: Record<string, unknown>, id: string) =>
      JSON.stringify({
        event: "webhook.test",
        data,
        metadata: { sentAt: "2025-03-14T18:22:51.120Z", event: id },
        mode: "test",
      });
    const sent = test({ webhookId: "wh.1", message: "hello" }, "evt.webhook-test-1");
    expect(await post(sent)).toEqual({ status: 200, body: { code: "success" } });
    expect(parseEvent(JSON.parse(sent)).event).toBe("webhook.test");
    expect(await post(test({ message: "hello" }, "evt.webhook-test-2"))).toEqual({
      status: 400,
      body: { error: "Invalid Request" },
    });
  });
});
