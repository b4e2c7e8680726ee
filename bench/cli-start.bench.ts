/**
 * The `cardhold` command's start: wall time and CPU (user + system of the child, reported by GNU time) per call of
 * the built bin, beside `node -e 0` (Node's own start) measured in the same run. Medians of --runs calls.
 *   npx tsx bench/cli-start.bench.ts [--runs 20]
 */
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import { ensureBuilt } from "../test/support/build";

const { values } = parseArgs({ options: { runs: { type: "string", default: "20" } } });
const runs = Number(values.runs);
// A gateway nobody listens on: the client commands fail at their first request, after loading everything they use.
const CLIENT_ENV = { ...process.env, CARDHOLD_URL: "http://127.0.0.1:9", CARDHOLD_KEY: "sk.test.bench" };

/** One call: wall and CPU seconds, the last line GNU time writes to stderr. */
function timedCall(args: string[]): [number, number] {
  const { stderr } = spawnSync("/usr/bin/time", ["-f", "%e %U %S", process.execPath, ...args], {
    encoding: "utf8",
    env: CLIENT_ENV,
  });
  const [wall, user, system] = stderr.trim().split("\n").at(-1)!.split(" ").map(Number);
  return [wall!, user! + system!];
}

function medianMs(values: number[]): number {
  return Math.round([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]! * 1000);
}

const CASES: [label: string, args: string[]][] = [
  ["node -e 0 (Node's start)", ["-e", "0"]],
  ["cardhold --help", ["apps/cli/bin/cardhold.mjs", "--help"]],
  [
    "--help through tsx from the sources (before the build step)",
    ["--import", "tsx", "apps/cli/src/main.ts", "--help"],
  ],
  ["cardhold dev --help", ["apps/cli/bin/cardhold.mjs", "dev", "--help"]],
  ["cardhold simulate check (gateway down)", ["apps/cli/bin/cardhold.mjs", "simulate", "check", "--card", "c.bench"]],
  ["cardhold events tail (gateway down)", ["apps/cli/bin/cardhold.mjs", "events", "tail"]],
];

await ensureBuilt();
console.log(`| call | wall p50 | CPU p50 |\n|---|---|---|`);
for (const [label, args] of CASES) {
  const samples = Array.from({ length: runs }, () => timedCall(args));
  console.log(`| ${label} | ${medianMs(samples.map((s) => s[0]))} ms | ${medianMs(samples.map((s) => s[1]))} ms |`);
}
