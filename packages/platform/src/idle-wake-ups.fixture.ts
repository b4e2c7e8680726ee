// A process that has a service's metrics and nothing else to do: prints how many times a second its main thread woke.
import { readFileSync } from "node:fs";
import { createMetrics } from "./metrics";

const withProcessMetrics = process.argv[2] !== "without";
createMetrics("idle", withProcessMetrics);
const wakeUps = () =>
  Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(readFileSync(`/proc/self/task/${process.pid}/status`, "utf8"))![1]);
const keepAlive = setInterval(() => undefined, 60_000);
setTimeout(() => {
  const before = wakeUps();
  setTimeout(() => {
    process.stdout.write(`${JSON.stringify({ wakeUpsPerSecond: (wakeUps() - before) / 2 })}\n`);
    clearInterval(keepAlive);
    process.exit(0);
  }, 2_000);
}, 500);
