import { describe, expect, it } from "vitest";
import { lateDecisionPhases } from "./late-decisions";

const startedAt = Date.parse("2026-11-30T02:00:00.000Z");
const lateLine = (atS: number, fields: Record<string, unknown>) =>
  JSON.stringify({
    level: 40,
    time: new Date(startedAt + atS * 1_000).toISOString(),
    msg: "decision applied late",
    ...fields,
  });

describe("where the late decisions' time went", () => {
  it("counts them by what applied them, with each phase's mean, and by the second of the run", () => {
    const engineOne = [
      lateLine(12.2, {
        appliedBy: "waiting-request",
        lateMs: 300,
        startedLateMs: 60,
        queuedMs: 40,
        connectionWaitMs: 10,
        transactionMs: 190,
      }),
      "plain text that is not JSON",
      JSON.stringify({ level: 30, time: new Date(startedAt).toISOString(), msg: "listening" }),
      lateLine(12.9, {
        appliedBy: "waiting-request",
        lateMs: 280,
        startedLateMs: 70,
        connectionWaitMs: 20,
        transactionMs: 170,
      }),
    ].join("\n");
    const engineTwo = [
      lateLine(25.1, { appliedBy: "deadline-sweeper", lateMs: 400, startedLateMs: 100 }),
      "{ broken",
    ].join("\n");
    const report = lateDecisionPhases([{ text: engineOne }, { text: engineTwo }], startedAt);
    expect(report).toContain(
      "waiting-request: 2, mean lateMs 290, startedLateMs 65, queuedMs 40, connectionWaitMs 15, transactionMs 180",
    );
    expect(report).toContain(
      "waiting-request: 2, mean lateMs 290, startedLateMs 65, queuedMs 40, connectionWaitMs 15, transactionMs 180\n" +
        "    p90 lateMs 300, startedLateMs 70, queuedMs 40, connectionWaitMs 20, transactionMs 190\n" +
        "    max lateMs 300, startedLateMs 70, queuedMs 40, connectionWaitMs 20, transactionMs 190",
    );
    expect(report).toContain(
      "deadline-sweeper: 1, mean lateMs 400, startedLateMs 100, queuedMs -, connectionWaitMs -, transactionMs -",
    );
    expect(report).toContain("by the second of the run they were applied in: 12: 2, 25: 1");
  });

  it("says so when there were none", () => {
    expect(lateDecisionPhases([{ text: "" }], startedAt)).toBe(
      "decisions the engines applied later than deadline + 250 ms: none",
    );
  });
});
