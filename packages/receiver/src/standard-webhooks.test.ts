import { execFileSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { approve, approveCheck } from "./answers.js";
import { createReceiver, type Handlers, type ReceiverOptions } from "./receiver.js";
import { memoryReplayStore, type ReplayStore } from "./replay-store.js";
import { standardSignature, verifyStandardSignature, type StandardWebhooksHeaders } from "./standard-webhooks.js";
import { memoryDeliveryStore } from "./store.js";

const OLD_KEY = "old-signing-key-0123456789";
const NEW_KEY = "new-signing-key-0123456789";
/** What GET /webhooks/:id/secret answers as standardWebhooksSecret for a signing key. */
const secretOf = (signingKey: string) => `whsec_${Buffer.from(signingKey, "utf8").toString("base64")}`;
const serviceSignature = (body: string, key: string) => createHmac("sha512", key).update(body).digest("hex");

/** The receiver's clock, ms; each test sets it. */
const NOW = 1_772_366_400_000;
const NOW_SECONDS = NOW / 1000;

let seq = 0;
function closedEvent(): string {
  return JSON.stringify({
    event: "card.authorization.closed",
    data: {
      id: `c.auth.SW${++seq}`,
      object: "card.authorization",
      card: "c.1",
      type: "capture",
      status: "approved",
      amount: 500,
      fees: 0,
      currency: "NGN",
      createdAt: "2026-03-01T12:00:00.000Z",
    },
    metadata: { sentAt: "2026-03-01T12:00:00.000Z", event: `evt.sw${seq}` },
  });
}
const eventIdOf = (body: string) => (JSON.parse(body) as { metadata: { event: string } }).metadata.event;

/** A delivery as the platform sends it: Service-Signature under the current key, webhook-signature under each key. */
function delivery(body: string, keys: string[] = [NEW_KEY], sentAt = NOW_SECONDS) {
  const id = eventIdOf(body);
  const signatures = keys.map((key) => new Webhook(secretOf(key)).sign(id, new Date(sentAt * 1000), body));
  const standard: Required<StandardWebhooksHeaders> = {
    id,
    timestamp: String(sentAt),
    signature: signatures.join(" "),
  };
  return { body, signature: serviceSignature(body, keys[0]!), standard };
}

let closedRuns = 0;
const handlers: Handlers = {
  check: () => approveCheck(1, "Ada"),
  capture: () => approve(),
  closed: () => (closedRuns++, approve()),
  amountUpdate: () => approve(),
  reversal: () => approve(),
};
const receiverWith = (opts: Partial<ReceiverOptions<undefined>> = {}) =>
  createReceiver({
    signingKey: NEW_KEY,
    store: memoryDeliveryStore(),
    handlers,
    ...opts,
    standardWebhooks: { now: () => NOW, ...opts.standardWebhooks },
  });

const OK = { status: 200, body: { action: "approve" } };
const INVALID_SIGNATURE = { status: 400, body: { error: "Invalid Signature" } };
const INVALID_TIMESTAMP = { status: 400, body: { error: "Invalid Timestamp" } };
const REPLAYED = { status: 400, body: { error: "Replayed Request" } };

describe("the Standard Webhooks signature", () => {
  it("is the one standardwebhooks makes with the secret the API answers, and openssl's", () => {
    const body = closedEvent();
    const made = standardSignature(body, "evt.1", "1772366400", NEW_KEY);
    expect(made).toBe(new Webhook(secretOf(NEW_KEY)).sign("evt.1", new Date(NOW), body));
    const openssl = execFileSync("openssl", ["dgst", "-sha256", "-hmac", NEW_KEY, "-binary"], {
      input: `evt.1.1772366400.${body}`,
    });
    expect(made).toBe(`v1,${openssl.toString("base64")}`);
  });

  it.each([
    ["the signature alone", (s: string) => s, true],
    [
      "another key's first",
      (s: string) => `${new Webhook(secretOf(OLD_KEY)).sign("evt.1", new Date(NOW), "{}")} ${s}`,
      true,
    ],
    ["a v2 entry only", (s: string) => s.replace("v1,", "v2,"), false],
    ["a truncated one", (s: string) => s.slice(0, -2), false],
    ["nothing", () => "", false],
  ])("in a header with %s verifies: %s", (_case, header, verifies) => {
    const signature = header(new Webhook(secretOf(NEW_KEY)).sign("evt.1", new Date(NOW), "{}"));
    expect(verifyStandardSignature("{}", { id: "evt.1", timestamp: "1772366400", signature }, NEW_KEY)).toBe(verifies);
  });
});

describe("a receiver checking Standard Webhooks headers", () => {
  it("accepts a valid delivery, and one without the headers unless they are required", async () => {
    const d = delivery(closedEvent());
    expect(await receiverWith().handle(d.body, d.signature, d.standard)).toEqual(OK);
    const plain = delivery(closedEvent());
    expect(await receiverWith().handle(plain.body, plain.signature)).toEqual(OK);
    const strict = receiverWith({ standardWebhooks: { required: true } });
    expect(await strict.handle(plain.body, plain.signature)).toEqual(INVALID_SIGNATURE);
    expect(await strict.handle(plain.body, plain.signature, plain.standard)).toEqual(OK);
  });

  it("refuses tampered bytes, a tampered or missing header, and a signature under a key other than Service-Signature's", async () => {
    const receiver = receiverWith({ signingKey: [OLD_KEY, NEW_KEY] });
    const runsBefore = closedRuns;
    const d = delivery(closedEvent());
    const tampered = d.body.replace('"amount":500', '"amount":501');
    expect(await receiver.handle(tampered, serviceSignature(tampered, NEW_KEY), d.standard)).toEqual(INVALID_SIGNATURE);
    for (const standard of [
      { ...d.standard, id: "evt.other" },
      { ...d.standard, timestamp: String(NOW_SECONDS - 1) },
      { ...d.standard, signature: d.standard.signature.replace(/.{4}=$/, "AAAA=") },
      { ...d.standard, signature: undefined },
      { id: d.standard.id },
    ]) {
      expect(await receiver.handle(d.body, d.signature, standard)).toEqual(INVALID_SIGNATURE);
    }
    const mixed = delivery(d.body, [OLD_KEY]);
    expect(await receiver.handle(d.body, mixed.signature, d.standard)).toEqual(INVALID_SIGNATURE);
    expect(closedRuns).toBe(runsBefore);
  });

  it.each([
    ["5 minutes old", NOW_SECONDS - 300, OK],
    ["older", NOW_SECONDS - 301, INVALID_TIMESTAMP],
    ["5 minutes ahead", NOW_SECONDS + 300, OK],
    ["further ahead", NOW_SECONDS + 301, INVALID_TIMESTAMP],
  ])("takes a timestamp %s: %j", async (_case, sentAt, answer) => {
    const d = delivery(closedEvent(), [NEW_KEY], sentAt);
    expect(await receiverWith().handle(d.body, d.signature, d.standard)).toEqual(answer);
  });

  it("refuses a timestamp that is not whole seconds, and takes its tolerance from the options", async () => {
    const d = delivery(closedEvent());
    const millis = { ...d.standard, timestamp: String(NOW) };
    expect(await receiverWith().handle(d.body, d.signature, millis)).toEqual(INVALID_TIMESTAMP);
    const near = receiverWith({ standardWebhooks: { toleranceSeconds: 10 } });
    const eleven = delivery(closedEvent(), [NEW_KEY], NOW_SECONDS - 11);
    expect(await near.handle(eleven.body, eleven.signature, eleven.standard)).toEqual(INVALID_TIMESTAMP);
    expect(() => receiverWith({ standardWebhooks: { toleranceSeconds: 0 } })).toThrow(TypeError);
  });

  it("refuses a replay of a delivery; a retry of the event (new timestamp) gets the first answer again", async () => {
    const receiver = receiverWith();
    const d = delivery(closedEvent());
    expect(await receiver.handle(d.body, d.signature, d.standard)).toEqual(OK);
    expect(await receiver.handle(d.body, d.signature, d.standard)).toEqual(REPLAYED);
    const before = closedRuns;
    const retry = delivery(d.body, [NEW_KEY], NOW_SECONDS + 5);
    expect(await receiver.handle(retry.body, retry.signature, retry.standard)).toEqual(OK);
    expect(closedRuns).toBe(before); // answered from the delivery store: the handler did not run again
  });

  it("remembers deliveries in a pluggable store, for as long as their timestamp is within the tolerance", async () => {
    const claims: Array<[string, number]> = [];
    const seen = new Set<string>();
    const replayStore: ReplayStore = {
      claim: async (key, keepUntil) => {
        claims.push([key, keepUntil]);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      },
    };
    const receiver = receiverWith({ standardWebhooks: { replayStore } });
    const d = delivery(closedEvent());
    expect(await receiver.handle(d.body, d.signature, d.standard)).toEqual(OK);
    expect(await receiver.handle(d.body, d.signature, d.standard)).toEqual(REPLAYED);
    expect(claims).toEqual([
      [`${d.standard.id} ${NOW_SECONDS}`, (NOW_SECONDS + 300) * 1000 + 1],
      [`${d.standard.id} ${NOW_SECONDS}`, (NOW_SECONDS + 300) * 1000 + 1],
    ]);
  });

  it("verifies a rolled key's delivery: both signatures during the grace, the new one's after it", async () => {
    const rolling = receiverWith({ signingKey: [OLD_KEY, NEW_KEY] });
    const during = delivery(closedEvent(), [NEW_KEY, OLD_KEY]);
    expect(during.standard.signature.split(" ")).toHaveLength(2);
    expect(await rolling.handle(during.body, during.signature, during.standard)).toEqual(OK);
    const after = delivery(closedEvent(), [NEW_KEY]);
    expect(await rolling.handle(after.body, after.signature, after.standard)).toEqual(OK);
    const rolled = receiverWith({ signingKey: NEW_KEY });
    const again = delivery(closedEvent(), [NEW_KEY, OLD_KEY]);
    expect(await rolled.handle(again.body, again.signature, again.standard)).toEqual(OK);
    // Service-Signature is the new key's only, as before: a receiver still holding only the old key refuses it.
    const stale = receiverWith({ signingKey: OLD_KEY });
    const late = delivery(closedEvent(), [NEW_KEY, OLD_KEY]);
    expect(await stale.handle(late.body, late.signature, late.standard)).toEqual(INVALID_SIGNATURE);
  });
});

describe("memoryReplayStore", () => {
  it("refuses a delivery it holds until it expires", () => {
    let now = 1_000;
    const store = memoryReplayStore(() => now);
    expect(store.claim("evt.1 1", 2_000)).toBe(true);
    expect(store.claim("evt.1 1", 2_000)).toBe(false);
    expect(store.claim("evt.1 2", 2_000)).toBe(true);
    now = 1_999;
    expect(store.claim("evt.1 1", 3_000)).toBe(false);
    now = 2_000;
    expect(store.claim("evt.1 1", 3_000)).toBe(true);
  });
});
