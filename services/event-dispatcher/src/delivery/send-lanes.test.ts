import { describe, expect, it } from "vitest";
import { createSendLanes, type Chain, type ChainOutcome } from "./send-lanes";

type Named = Chain & { name: string };
const notification = (webhookId: string, name = webhookId): Named => ({ policy: "notification", webhookId, name });
const decision = (webhookId: string, name = webhookId): Named => ({ policy: "decision", webhookId, name });

/** maxInFlight 8: 2 reserved for decisions, so 6 notification slots in all; 2 per webhook's notifications, 4 for decisions. */
const small = () => createSendLanes<Named>({ maxInFlight: 8, perWebhook: 2, startPerWebhook: 2, prefetch: 3 });

/** A webhook's notification window from 2 up to 6 (decisions: 8 of 16 slots). */
const adaptive = () => createSendLanes<Named>({ maxInFlight: 16, perWebhook: 6, startPerWebhook: 2, prefetch: 2 });

/** How many notifications of wh.a start at once after these outcomes (each outcome: one send started and finished). */
function windowAfter(outcomes: ChainOutcome[]): number {
  const lanes = adaptive();
  for (const outcome of outcomes) {
    const c = notification("wh.a");
    expect(lanes.offer(c)).toBe("start");
    lanes.finished(c, outcome);
  }
  let started = 0;
  while (lanes.offer(notification("wh.a")) === "start") started += 1;
  return started;
}

describe("send lanes", () => {
  it.each([
    { offered: 1, expected: ["start"] },
    { offered: 2, expected: ["start", "start"] },
    { offered: 3, expected: ["start", "start", "wait"] },
    // A lane keeps its slots times the prefetch (2 × 3 = 6) between sends under way and sends waiting.
    { offered: 7, expected: ["start", "start", "wait", "wait", "wait", "wait", "refuse"] },
  ])("a webhook's notifications: $offered offered → $expected", ({ offered, expected }) => {
    const lanes = small();
    expect(Array.from({ length: offered }, (_, i) => lanes.offer(notification("wh.a", `n${i}`)))).toEqual(expected);
  });

  it("decisions never wait in memory: past their lane's slots they are refused", () => {
    const lanes = small();
    expect([1, 2, 3, 4, 5].map((i) => lanes.offer(decision("wh.a", `d${i}`)))).toEqual([
      "start",
      "start",
      "start",
      "start",
      "refuse",
    ]);
  });

  it("notifications leave a quarter of all slots to decisions", () => {
    const lanes = small();
    for (const webhook of ["wh.a", "wh.b", "wh.c"])
      for (let i = 0; i < 2; i++) expect(lanes.offer(notification(webhook))).toBe("start");
    expect(lanes.offer(notification("wh.d"))).toBe("wait");
    expect(lanes.offer(decision("wh.d"))).toBe("start");
    expect(lanes.offer(decision("wh.e"))).toBe("start");
    expect(lanes.offer(decision("wh.f"))).toBe("refuse");
    expect(lanes.inFlight()).toBe(8);
  });

  it("a finished send starts what waits in its own lane first, then in the others", () => {
    const lanes = small();
    const [a1, a2, a3] = ["a1", "a2", "a3"].map((n) => notification("wh.a", n)) as [Named, Named, Named];
    for (const c of [a1, a2, a3]) lanes.offer(c);
    for (const webhook of ["wh.b", "wh.c"]) for (let i = 0; i < 2; i++) lanes.offer(notification(webhook));
    const b3 = notification("wh.b", "b3");
    expect(lanes.offer(b3)).toBe("wait");
    expect(lanes.finished(a1).map((c) => c.name)).toEqual(["a3"]);
    expect(lanes.finished(a2).map((c) => c.name)).toEqual([]);
    expect(lanes.finished(notification("wh.b")).map((c) => c.name)).toEqual(["b3"]);
  });

  it("the room a claim may take: per lane what it has left, in all the free slots and the notifications' budget", () => {
    const lanes = small();
    expect(lanes.room()).toEqual({
      limit: 8 + 18,
      notifications: 18,
      perWebhookDecisions: 4,
      perWebhookNotifications: 6,
      busy: [],
    });
    lanes.offer(notification("wh.a"));
    lanes.offer(notification("wh.a"));
    lanes.offer(notification("wh.a"));
    lanes.offer(decision("wh.a"));
    expect(lanes.room()).toEqual({
      limit: 5 + 15,
      notifications: 15,
      perWebhookDecisions: 4,
      perWebhookNotifications: 6,
      busy: [
        { webhookId: "wh.a", policy: "notification", room: 3 },
        { webhookId: "wh.a", policy: "decision", room: 3 },
      ],
    });
  });

  it("a decision lane's room is bounded by the slots free now (decisions are never claimed to wait)", () => {
    const lanes = small();
    for (const webhook of ["wh.a", "wh.b", "wh.c"]) for (let i = 0; i < 2; i++) lanes.offer(notification(webhook));
    lanes.offer(decision("wh.d"));
    const room = lanes.room();
    expect(room.perWebhookDecisions).toBe(1);
    expect(room.busy).toContainEqual({ webhookId: "wh.d", policy: "decision", room: 1 });
    lanes.offer(decision("wh.e"));
    expect(lanes.room().perWebhookDecisions).toBe(0);
    expect(lanes.room().busy).toContainEqual({ webhookId: "wh.d", policy: "decision", room: 0 });
  });

  it("drain hands back everything waiting, and the lanes are empty once the sends under way finish", () => {
    const lanes = small();
    const chains = [1, 2, 3, 4].map((i) => notification("wh.a", `n${i}`));
    for (const c of chains) lanes.offer(c);
    expect(lanes.drain().map((c) => c.name)).toEqual(["n3", "n4"]);
    expect(lanes.finished(chains[0]!)).toEqual([]);
    expect(lanes.finished(chains[1]!)).toEqual([]);
    expect(lanes.inFlight()).toBe(0);
    expect(lanes.room().busy).toEqual([]);
  });

  it.each<{ outcomes: ChainOutcome[]; window: number }>([
    { outcomes: [], window: 2 },
    { outcomes: ["fast"], window: 3 },
    { outcomes: ["fast", "fast", "fast"], window: 5 },
    // Never above the most per webhook.
    { outcomes: Array<ChainOutcome>(10).fill("fast"), window: 6 },
    // A slow answer or an unknown outcome holds the window.
    { outcomes: ["fast", "fast", "slow", "unknown"], window: 4 },
    // Trouble halves it, never below the start.
    { outcomes: ["fast", "fast", "fast", "fast", "trouble"], window: 3 },
    { outcomes: ["fast", "trouble", "trouble"], window: 2 },
  ])("a webhook's notification window after $outcomes: $window", ({ outcomes, window }) => {
    expect(windowAfter(outcomes)).toBe(window);
  });

  it("a grown window is kept while its lane is idle, and a claim may take what it holds", () => {
    const lanes = adaptive();
    for (let i = 0; i < 2; i++) {
      const c = notification("wh.a");
      lanes.offer(c);
      lanes.finished(c, "fast");
    }
    expect(lanes.inFlight()).toBe(0);
    // 4 slots, times the prefetch of 2; a webhook never seen gets the start's 2 × 2.
    expect(lanes.room().busy).toEqual([{ webhookId: "wh.a", policy: "notification", room: 8 }]);
    expect(lanes.room().perWebhookNotifications).toBe(4);
  });

  it("decisions keep their fixed slots whatever their answers", () => {
    const lanes = adaptive();
    const d = decision("wh.a");
    lanes.offer(d);
    lanes.finished(d, "trouble");
    expect(Array.from({ length: 9 }, () => lanes.offer(decision("wh.a")))).toEqual([
      ...Array<string>(8).fill("start"),
      "refuse",
    ]);
  });
});
