import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { createMetrics } from "./metrics";

const fixture = fileURLToPath(new URL("./idle-wake-ups.fixture.ts", import.meta.url));

async function idleWakeUpsPerSecond(withProcessMetrics: boolean): Promise<number> {
  const args = ["--import", "tsx", fixture, withProcessMetrics ? "with" : "without"];
  const { stdout } = await promisify(execFile)(process.execPath, args, { timeout: 30_000 });
  return (JSON.parse(stdout.trim()) as { wakeUpsPerSecond: number }).wakeUpsPerSecond;
}

describe("a service's metrics", () => {
  it("still expose the process's event-loop delay", async () => {
    const { registry } = createMetrics("lag-test");
    const text = await registry.metrics();
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds\{service="lag-test"\} /m);
    expect(text).toMatch(/^process_cpu_seconds_total\{service="lag-test"\} /m);
  });

  // prom-client's default samples the loop every 10 ms: ~100 wake-ups a second of a process with nothing to do.
  it("wake an idle process about ten times a second, not a hundred", async () => {
    const [withMetrics, without] = await Promise.all([idleWakeUpsPerSecond(true), idleWakeUpsPerSecond(false)]);
    expect(withMetrics).toBeGreaterThanOrEqual(5);
    expect(withMetrics).toBeLessThan(30);
    expect(without).toBeLessThan(5);
  }, 40_000);
});
