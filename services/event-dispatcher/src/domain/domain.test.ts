import { execFileSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deliveryPolicy, isDelivered, sendTimeoutMs, waitedUntilDeadline } from "./delivery-policy";
import { deliveredEnvelope } from "./envelope";
import { nextAttemptAt, parseRetryAfter, DEFAULT_RETRY_DELAYS_MS, DEFAULT_RETRY_WINDOW_MS } from "./retry-schedule";
import { routeEvent, routeEventTo, type RouteCandidate } from "./routing";
import { sign, signatureHeaders, verify } from "./signature";

describe("signature", () => {
  const vectors: Array<[string, string]> = [
    ["secret", '{"event":"card.authorization.request","data":{"amount":500}}'],
    ["a-much-longer-signing-key-0123456789abcdef", "{}"],
    ["ключ", '{"name":"Ọlá ☂"}'],
  ];

  it.each(vectors)("matches openssl dgst -sha512 -hmac for key %s", (key, body) => {
    const expected = execFileSync("openssl", ["dgst", "-sha512", "-hmac", key], { input: body })
      .toString()
      .trim()
      .split("= ")
      .pop();
    expect(sign(Buffer.from(body), key)).toBe(expected);
  });

  it("matches a fixed vector computed once with openssl", () => {
    expect(sign('{"event":"card.transaction.created"}', "whsec-test-key")).toBe(
      "6d169301ff77a10dcafa592356ed56ee36b5c97ae82d7848ce0d3bfd748c9e48d2cc545b6749988b1183e78fa3c5ac09071dc16a734b86315aee58b55551cdee",
    );
  });

  it.each([
    [[], ["service-signature"]],
    [["Acme-Signature"], ["Acme-Signature", "service-signature"]],
    [
      ["Acme-Signature", "x-acme-sig"],
      ["Acme-Signature", "x-acme-sig", "service-signature"],
    ],
  ])("extra signature headers %j: each of %j carries the same hex HMAC-SHA512", (extra, names) => {
    const body = '{"event":"card.authorization.request"}';
    const headers = signatureHeaders(Buffer.from(body), "whsec-test-key", extra);
    expect(Object.keys(headers)).toEqual(names);
    for (const name of names) expect(headers[name]).toBe(sign(body, "whsec-test-key"));
  });

  it("verifies only the exact bytes with the right key", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string(), (key, body) => {
        const signature = sign(body, key);
        return (
          verify(body, key, signature) && !verify(body + " ", key, signature) && !verify(body, key + "x", signature)
        );
      }),
    );
    expect(verify("{}", "k", "not-hex")).toBe(false);
  });
});

describe("delivered envelope", () => {
  const envelope = {
    event: "card.authorization.closed",
    data: { id: "c.auth.1", amount: 500 },
    metadata: { sentAt: "2024-01-01T00:00:00.000Z", event: "evt.1" },
  };

  it("keeps the producer's fields in their order and adds the mode last", () => {
    expect(deliveredEnvelope(envelope, "live")).toBe(
      '{"event":"card.authorization.closed","data":{"id":"c.auth.1","amount":500},"metadata":{"sentAt":"2024-01-01T00:00:00.000Z","event":"evt.1"},"mode":"live"}',
    );
    expect(JSON.parse(deliveredEnvelope(envelope, "test"))).toEqual({ ...envelope, mode: "test" });
  });

  it("says the message's mode even when a producer wrote another", () => {
    expect(JSON.parse(deliveredEnvelope({ event: "x", mode: "test", data: {} }, "live"))).toEqual({
      event: "x",
      mode: "live",
      data: {},
    });
  });
});

describe("routing (Rule 8)", () => {
  const def: RouteCandidate = { id: "wh.default", events: [], status: "enabled", isDefault: true };
  const hook = (id: string, events: string[], status: RouteCandidate["status"]): RouteCandidate => ({
    id,
    events,
    status,
    isDefault: false,
  });

  it.each([
    ["no extra webhooks: the default gets everything", [def], "card.authorization.request", ["wh.default"]],
    [
      "an enabled webhook takes its kinds from the default",
      [def, hook("wh.a", ["card.authorization.request"], "enabled")],
      "card.authorization.request",
      ["wh.a"],
    ],
    [
      "kinds it does not name stay with the default",
      [def, hook("wh.a", ["card.authorization.request"], "enabled")],
      "card.transaction.created",
      ["wh.default"],
    ],
    [
      "a created (not yet enabled) webhook takes nothing",
      [def, hook("wh.a", ["card.authorization.request"], "created")],
      "card.authorization.request",
      ["wh.default"],
    ],
    [
      "disabling gives the kinds back to the default",
      [def, hook("wh.a", ["card.authorization.request"], "disabled")],
      "card.authorization.request",
      ["wh.default"],
    ],
    [
      "several enabled webhooks for one kind are all called",
      [
        def,
        hook("wh.a", ["card.authorization.closed"], "enabled"),
        hook("wh.b", ["card.authorization.closed"], "enabled"),
      ],
      "card.authorization.closed",
      ["wh.a", "wh.b"],
    ],
    ["no default and no covering webhook: nobody", [hook("wh.a", ["x"], "enabled")], "card.authorization.closed", []],
  ] as const)("%s", (_name, webhooks, kind, expected) => {
    expect(routeEvent(kind, [...webhooks]).map((w) => w.id)).toEqual(expected);
  });

  const covering = hook("wh.a", ["card.authorization.request"], "enabled");
  it.each([
    [
      "a program's enabled webhook gets its events alone",
      [def, covering, hook("wh.p", [], "enabled")],
      "wh.p",
      ["wh.p"],
    ],
    ["the default webhook can be a program's webhook", [def, covering], "wh.default", ["wh.default"]],
    [
      "a program's webhook that is not enabled: Rule 8",
      [def, covering, hook("wh.p", [], "disabled")],
      "wh.p",
      ["wh.a"],
    ],
    ["a program's webhook that is gone: Rule 8", [def, covering], "wh.gone", ["wh.a"]],
    ["no program webhook: Rule 8", [def, covering], undefined, ["wh.a"]],
  ] as const)("%s", (_name, webhooks, named, expected) => {
    expect(routeEventTo("card.authorization.request", [...webhooks], named).map((w) => w.id)).toEqual(expected);
  });
});

describe("delivery policy (Rules 5, 6)", () => {
  it.each([
    ["card.authorization.request", { status: "pending" }, "decision"],
    ["card.authorization.request", { type: "check" }, "decision"],
    ["card.authorization.update", { status: "pending" }, "decision"],
    ["card.authorization.update", { status: "reversed" }, "notification"],
    ["card.authorization.closed", { status: "approved" }, "notification"],
    ["card.authorization.closed", { status: "declined" }, "notification"],
    ["card.transaction.created", {}, "notification"],
    ["payment.bill.completed", {}, "notification"],
  ] as const)("%s %j is a %s", (kind, data, expected) => {
    const policy = deliveryPolicy(kind, data);
    expect(policy.kind).toBe(expected);
    expect(policy.timeoutMs).toBe(expected === "decision" ? 4_000 : 10_000);
  });

  it("counts only HTTP 200 as delivered", () => {
    expect([200, 201, 204, 400, 500, undefined].map(isDelivered)).toEqual([true, false, false, false, false, false]);
  });
});

describe("retry schedule", () => {
  const t0 = 1_700_000_000_000;
  const middle = () => 0.5;

  it("follows the configured delays without jitter at the midpoint, the first retries within seconds", () => {
    let now = t0;
    const delays: number[] = [];
    for (let attemptNo = 1; attemptNo <= 10; attemptNo++) {
      const at = nextAttemptAt({ attemptNo, firstAttemptAt: t0, now }, undefined, middle)!;
      delays.push(at - now);
      now = at;
    }
    expect(delays.slice(0, 9)).toEqual(DEFAULT_RETRY_DELAYS_MS);
    expect(delays[9]).toBe(DEFAULT_RETRY_DELAYS_MS.at(-1));
    expect(delays[0]).toBe(5_000);
  });

  it("keeps jitter within ±20 %", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        (attemptNo, r) => {
          const base = DEFAULT_RETRY_DELAYS_MS[Math.min(attemptNo, DEFAULT_RETRY_DELAYS_MS.length) - 1]!;
          const delay = nextAttemptAt({ attemptNo, firstAttemptAt: t0, now: t0 }, undefined, () => r)! - t0;
          return delay >= base * 0.8 - 1 && delay <= base * 1.2 + 1;
        },
      ),
    );
  });

  it("gives up once the 3-day window is used up", () => {
    expect(
      nextAttemptAt(
        { attemptNo: 20, firstAttemptAt: t0, now: t0 + DEFAULT_RETRY_WINDOW_MS - 1_000 },
        undefined,
        middle,
      ),
    ).toBeUndefined();
    expect(nextAttemptAt({ attemptNo: 20, firstAttemptAt: t0, now: t0 + 1_000 }, undefined, middle)).toBeDefined();
  });

  it("waits a floor after timeouts and 429, and honours Retry-After up to a cap", () => {
    expect(nextAttemptAt({ attemptNo: 1, firstAttemptAt: t0, now: t0, timedOut: true }, undefined, middle)! - t0).toBe(
      30_000,
    );
    expect(nextAttemptAt({ attemptNo: 1, firstAttemptAt: t0, now: t0, httpStatus: 429 }, undefined, middle)! - t0).toBe(
      30_000,
    );
    expect(
      nextAttemptAt({ attemptNo: 1, firstAttemptAt: t0, now: t0, retryAfterMs: 120_000 }, undefined, middle)! - t0,
    ).toBe(120_000);
    expect(
      nextAttemptAt({ attemptNo: 1, firstAttemptAt: t0, now: t0, retryAfterMs: 10 * 3_600_000 }, undefined, middle)! -
        t0,
    ).toBe(3_600_000);
  });

  it("reads Retry-After in seconds or as a date", () => {
    expect(parseRetryAfter("120", t0)).toBe(120_000);
    expect(parseRetryAfter(new Date(t0 + 60_000).toUTCString(), t0)).toBe(60_000);
    expect(parseRetryAfter("soon", t0)).toBeUndefined();
    expect(parseRetryAfter(undefined, t0)).toBeUndefined();
  });
});

describe("how long to wait for a receiver", () => {
  const now = 1_000_000;
  it.each([
    ["notification", null, 10_000],
    ["decision", null, 4_000],
    ["decision", now + 4_000, 4_000],
    ["decision", now + 9_000, 4_000],
    ["decision", now + 1_200, 1_200],
    ["decision", now + 250, 250],
    ["decision", now + 249, undefined],
    ["decision", now - 10, undefined],
  ] as const)("%s due at %s: %s ms", (policy, answerBy, expected) => {
    expect(sendTimeoutMs(policy, answerBy === null ? null : new Date(answerBy), now)).toBe(expected);
  });
});

describe("a receiver's timeout that reached the decision's deadline (no answer `timeout` sent: the engine's default decides)", () => {
  const sentAt = 1_000_000;
  it.each([
    ["decision", sentAt + 1_200, true],
    ["decision", sentAt + 4_000, true],
    ["decision", sentAt + 4_001, false],
    ["decision", null, false],
    ["notification", sentAt + 1_200, false],
  ] as const)("%s due at %s: %s", (policy, answerBy, expected) => {
    expect(waitedUntilDeadline(policy, answerBy === null ? null : new Date(answerBy), sentAt)).toBe(expected);
  });
});
