/**
 * The fairness bench's flooder, in its own process (an abusive tenant is another client, not a task on the load
 * generator's event loop): lists `path` with `key` at `rate` a second (open loop), or over `connections` loops as
 * fast as answers come when rate is 0, until its parent sends "stop"; then sends back its answers by status.
 *   fork("bench/support/list-flooder.ts", [base, key, rate, connections, path], { execArgv: ["--import", "tsx"] })
 */
import { Agent } from "undici";
import { benchApi } from "./bench-api";

const [base, key, rateArg, connectionsArg, path] = process.argv.slice(2) as [string, string, string, string, string];
const client = benchApi(base, key, new Agent({ connections: 256, keepAliveTimeout: 30_000 }));
const counts: Record<number, number> = {};
let stopped = false;
const started = performance.now();

const listOnce = () =>
  client
    .call("GET", path)
    .catch(() => ({ status: 0 }))
    .then(({ status }) => void (counts[status] = (counts[status] ?? 0) + 1));

async function paced(rate: number) {
  const sends: Promise<void>[] = [];
  for (let i = 0; !stopped; i++) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    sends.push(listOnce());
  }
  await Promise.all(sends);
}

async function loop() {
  while (!stopped) await listOnce();
}

const rate = Number(rateArg);
const loops = rate > 0 ? [paced(rate)] : Array.from({ length: Number(connectionsArg) }, loop);
process.on("message", async () => {
  stopped = true;
  await Promise.all(loops);
  const seconds = (performance.now() - started) / 1000;
  process.send!({ seconds, counts }, () => process.exit(0));
});
process.send!("started");
