/**
 * What the distributed platform costs doing nothing: each process's CPU per second with no request at all, in the
 * chaos run's layout (two engines, dispatchers and gateways, one of each other service) on a Kafka broker and a
 * PostgreSQL server of the bench's own. Every millisecond here is paid again at every rate: at 50/s, 500 ms of idle
 * CPU a second is 10 ms per authorization.
 *   npx tsx bench/idle.bench.ts [--seconds 30] [--warm-up-seconds 20] [--session-ms 2000]
 * `--session-ms` is the Kafka session the chaos run sets (KAFKA_SESSION_TIMEOUT_MS); 0 leaves the services' default.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { privateDirectory } from "@cardhold/db";
import { freePort, SERVICE_NAMES } from "../test/integration/support/service-processes";
import { startOwnedKafka } from "../test/chaos/owned-kafka";
import { startOwnedPostgres } from "../test/chaos/owned-postgres";
import { startScaledPlatform } from "../test/chaos/platform-instances";
import { readCpu, type ProcessGroups } from "./support/process-cpu";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "30" },
    "warm-up-seconds": { type: "string", default: "20" },
    "session-ms": { type: "string", default: "2000" },
  },
});
const seconds = Number(values.seconds);
const warmUpSeconds = Number(values["warm-up-seconds"]);
const sessionMs = Number(values["session-ms"]);

const dir = mkdtempSync(join(tmpdir(), "cardhold-idle-"));
privateDirectory(dir);
const cleanups: Array<() => Promise<void>> = [];
try {
  const postgres = await startOwnedPostgres(join(dir, "pg"));
  cleanups.unshift(() => postgres.stop());
  const kafka = await startOwnedKafka(join(dir, "kafka"), await freePort(), await freePort());
  cleanups.unshift(() => kafka.stop());
  const platform = await startScaledPlatform(
    postgres.url,
    kafka.brokers,
    sessionMs > 0 ? { KAFKA_SESSION_TIMEOUT_MS: String(sessionMs) } : {},
  );
  cleanups.unshift(() => platform.stop());
  const groups: ProcessGroups = {
    ...Object.fromEntries(SERVICE_NAMES.map((name) => [name, () => platform.pidsOf(name)])),
    kafka: () => [kafka.pid()].filter((pid): pid is number => pid !== undefined),
    postgres: () => postgres.pids(),
  };
  await sleep(warmUpSeconds * 1_000);
  const before = readCpu(groups);
  await sleep(seconds * 1_000);
  const after = readCpu(groups);
  const rows = Object.keys(groups).map((name) => [name, (after[name]! - before[name]!) / seconds] as const);
  const total = rows.reduce((sum, [, ms]) => sum + ms, 0);
  console.log(`idle ${seconds} s after ${warmUpSeconds} s, Kafka session ${sessionMs || "default"} ms`);
  console.log("| process | ms of CPU per second |\n|---|---|");
  for (const [name, ms] of rows) console.log(`| ${name} | ${ms.toFixed(1)} |`);
  console.log(`| total | ${total.toFixed(1)} |`);
} finally {
  for (const cleanup of cleanups) await cleanup().catch((err: unknown) => console.error(err));
  rmSync(dir, { recursive: true, force: true });
}
