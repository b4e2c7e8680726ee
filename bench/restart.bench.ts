/**
 * How long each service, killed while the others run, takes to answer /ready again, and the CPU its new process
 * spent to get there (from /proc): what a chaos run's kill windows and a rolling deploy wait for.
 *
 *   KAFKA_BROKERS=127.0.0.1:9092 DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/restart.bench.ts [--rounds 3]
 */
import { parseArgs } from "node:util";
import { readCpu } from "./support/process-cpu";
import { createScratchDatabase } from "../test/integration/support/scratch-database";
import { SERVICE_NAMES, startPlatform, startServiceProcess } from "../test/integration/support/service-processes";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "3" } } });
const rounds = Number(values.rounds);
const serverUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const brokers = process.env.KAFKA_BROKERS ?? "127.0.0.1:9092";

const database = await createScratchDatabase(serverUrl);
const platform = await startPlatform(database.url, brokers);
try {
  const results: Record<string, Array<{ readyMs: number; cpuMs: number }>> = {};
  for (let round = 0; round < rounds; round++) {
    for (const name of SERVICE_NAMES) {
      await platform.processes.get(name)!.kill("SIGKILL");
      const started = Date.now();
      const pending = startServiceProcess(name, platform.env, platform.ports[name], false);
      const p = await pending;
      const pid = p.child.pid!;
      let cpuMs = 0;
      for (;;) {
        cpuMs = readCpu({ p: () => [pid] }).p!;
        const ready = await fetch(`${p.url}/ready`).then(
          (r) => r.status === 200,
          () => false,
        );
        if (ready) break;
        if (Date.now() - started > 60_000) throw new Error(`${name} not ready in 60 s:\n${p.output()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      platform.processes.set(name, p);
      (results[name] ??= []).push({ readyMs: Date.now() - started, cpuMs });
      await new Promise((r) => setTimeout(r, 2_000));
    }
  }
  for (const [name, runs] of Object.entries(results))
    console.log(
      `${name.padEnd(22)} ready after ${runs.map((r) => r.readyMs).join(" / ")} ms; CPU to ready ${runs.map((r) => r.cpuMs).join(" / ")} ms`,
    );
} finally {
  await platform.stop();
  await database.drop();
}
