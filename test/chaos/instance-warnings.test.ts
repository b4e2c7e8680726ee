import { describe, expect, it } from "vitest";
import { instanceWarnings } from "./instance-warnings";

const pino = (level: number, msg: string) => JSON.stringify({ level, time: "t", service: "s", msg });

describe("a failed chaos run's warnings, per instance", () => {
  it("keeps each instance's own lines at warn level and above, the last ones, and names a quiet instance", () => {
    const engine = [pino(30, "ready"), pino(40, "w1"), pino(50, "e1"), "not json {", pino(40, "w2")].join("\n");
    const bills = [pino(30, "ready"), "Error: connect ECONNREFUSED", "{broken json"].join("\n");
    const report = instanceWarnings(
      [
        { id: "authorization-engine-1", text: engine },
        { id: "bill-service-1", text: bills },
        { id: "event-dispatcher-1", text: pino(30, "ready") },
      ],
      2,
    );
    expect(report.split("\n")).toEqual([
      "--- authorization-engine-1 ---",
      pino(50, "e1"),
      pino(40, "w2"),
      "--- bill-service-1 ---",
      "Error: connect ECONNREFUSED",
      "--- event-dispatcher-1: no warnings ---",
    ]);
  });
});
