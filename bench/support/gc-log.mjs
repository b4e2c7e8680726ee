// Loaded into a benched platform process (BENCH_NODE_ARGS="--import $PWD/bench/support/gc-log.mjs"): appends every
// garbage collection (wall-clock start, pause ms, kind: 1 young generation, 4 full, 8 incremental marking; flags:
// V8's GCCallbackFlags, e.g. 32 for external memory pressure) and, each second, the old generation's used size, as
// JSON lines to GC_LOG_FILE (default /tmp/gc-log.jsonl). `npx tsx bench/support/gc-log-summary.ts` reads it: how
// fast the old generation grows, and the count and pauses of each kind of collection.
import { appendFileSync } from "node:fs";
import { getHeapSpaceStatistics } from "node:v8";
import { PerformanceObserver, performance } from "node:perf_hooks";
import process from "node:process";
import { setInterval } from "node:timers";

const file = process.env.GC_LOG_FILE ?? "/tmp/gc-log.jsonl";
const lines = [];
const oldKB = () =>
  Math.round(getHeapSpaceStatistics().find((s) => s.space_name === "old_space").space_used_size / 1024);

new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    lines.push(
      JSON.stringify({
        at: performance.timeOrigin + e.startTime,
        ms: e.duration,
        kind: e.detail?.kind,
        flags: e.detail?.flags,
      }),
    );
  }
}).observe({ entryTypes: ["gc"] });

setInterval(() => {
  lines.push(JSON.stringify({ at: Date.now(), oldKB: oldKB() }));
  appendFileSync(file, `${lines.splice(0).join("\n")}\n`);
}, 1000).unref();
