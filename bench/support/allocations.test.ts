import { describe, expect, it } from "vitest";
import { summarise } from "./allocations";

const frame = (functionName: string, url: string, selfSize: number, children: unknown[] = []) => ({
  callFrame: { functionName, url, lineNumber: 9 },
  selfSize,
  children,
});

describe("summarise (allocation profile)", () => {
  it("sums bytes per operation by allocating function and by the package of the nearest script frame", () => {
    const head = frame("(root)", "", 0, [
      frame("query", "file:///w/node_modules/pg/lib/client.js", 2048, [frame("replace", "", 4096)]),
      frame("carryOut", "file:///w/apps/cli/dist/chunks/all-in-one.js", 1024, [
        frame("query", "file:///w/node_modules/pg/lib/client.js", 1024),
      ]),
    ]);
    const report = summarise(head as never, 2);
    expect(report.kbPerOperation).toBe(4);
    expect(report.topFunctions[0]).toEqual({ kbPerOperation: 2, at: "replace :10" });
    expect(report.topFunctions[1]).toEqual({ kbPerOperation: 1.5, at: "query lib/client.js:10" });
    // A native function's bytes count for the package that called it.
    expect(report.topPackages).toEqual([
      { kbPerOperation: 3.5, package: "pg" },
      { kbPerOperation: 0.5, package: "apps/cli" },
    ]);
  });
});
