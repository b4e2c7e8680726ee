/**
 * The disk under every durable commit: one 8 KB write and fdatasync (what a PostgreSQL commit waits for when it
 * flushes the WAL) every `--interval-ms`, for `--seconds`, in `--dir` (default: the repository, on the same disk as
 * `./.data`). Prints the latency percentiles and each sync slower than `--slow-ms` with when it happened.
 *   npx tsx bench/disk-sync.bench.ts [--seconds 30] [--interval-ms 10] [--dir .] [--slow-ms 20]
 * A capture commits twice, and every commit in flight waits for the same flush: one slow sync is a tail latency of
 * every authorization being committed at that moment, whatever the platform's own code does (bench/README.md).
 */
import { closeSync, fdatasyncSync, openSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "30" },
    "interval-ms": { type: "string", default: "10" },
    dir: { type: "string", default: "." },
    "slow-ms": { type: "string", default: "20" },
  },
});
const seconds = Number(values.seconds);
const intervalMs = Number(values["interval-ms"]);
const slowMs = Number(values["slow-ms"]);
if (!(seconds > 0) || !(intervalMs >= 0) || !(slowMs > 0))
  throw new Error("--seconds, --interval-ms, --slow-ms: numbers");

const path = join(values.dir, `.disk-sync-probe-${process.pid}`);
const fd = openSync(path, "w", 0o600);
const page = Buffer.alloc(8192, 1);
const latencies: number[] = [];
const slow: Array<{ atS: number; ms: number }> = [];
const started = performance.now();
try {
  while (performance.now() - started < seconds * 1000) {
    const t0 = performance.now();
    writeSync(fd, page, 0, page.length, 0);
    fdatasyncSync(fd);
    const ms = performance.now() - t0;
    latencies.push(ms);
    if (ms > slowMs) slow.push({ atS: +((t0 - started) / 1000).toFixed(2), ms: +ms.toFixed(1) });
    if (intervalMs > 0) await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
} finally {
  closeSync(fd);
  rmSync(path, { force: true });
}

latencies.sort((a, b) => a - b);
const at = (p: number) => +latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!.toFixed(2);
console.log(
  JSON.stringify({
    syncs: latencies.length,
    p50ms: at(0.5),
    p99ms: at(0.99),
    p999ms: at(0.999),
    maxMs: +latencies[latencies.length - 1]!.toFixed(1),
    slowerThanMs: slowMs,
    slow,
  }),
);
