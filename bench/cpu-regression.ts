/**
 * CI's regression check on the real-time path: a short all-in-one capture run (bench/authorization.bench.ts) and the
 * floor under it (bench/floor.bench.ts: the same hops, no business logic) at the same rate, one after the other. The
 * platform's CPU per authorization divided by the floor's CPU per request must stay within 1.5x of the ratio recorded
 * in bench/cpu-baseline.json, with every authorization decided and the ledger exact afterwards (the bench's ledger
 * audit). CPU time, not wall time, and a ratio to a yardstick measured in the same run: this machine's absolute CPU
 * figures move 2x from day to day (a wake-up across its two vCPUs costs 10x more on a slow day), the ratio far less.
 *   npx tsx bench/cpu-regression.ts
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

const TOLERANCE = 1.5;
const baseline = JSON.parse(readFileSync(new URL("./cpu-baseline.json", import.meta.url), "utf8")) as {
  allInOne: { rate: number; seconds: number; cpuMsPerAuthorization: number; platformToFloor: number };
};
const { rate, seconds, cpuMsPerAuthorization: recordedMs, platformToFloor: recordedRatio } = baseline.allInOne;

/** Runs one bench script in the all-in-one mode and returns its JSON output lines. */
function runBench(script: string, rateFlag: string): Record<string, unknown>[] {
  const args = [
    "--import",
    "tsx",
    script,
    "--mode",
    "all-in-one",
    rateFlag,
    String(rate),
    "--seconds",
    String(seconds),
  ];
  const output = execFileSync(process.execPath, args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  return output
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const platformLines = runBench("bench/authorization.bench.ts", "--rates");
const result = platformLines.find((line) => "mode" in line) as {
  approved: number;
  failed: number;
  cpuMsPerAuthorization: { total: number };
};
const { ledgerAudit } = platformLines.find((line) => "ledgerAudit" in line) as {
  ledgerAudit: { undecided: number; problems: string[] };
};
const floor = runBench("bench/floor.bench.ts", "--rate").find((line) => "floor" in line) as {
  cpuMsPerRequest: { total: number };
};

const measuredMs = result.cpuMsPerAuthorization.total;
const floorMs = floor.cpuMsPerRequest.total;
const ratio = measuredMs / floorMs;
const limit = recordedRatio * TOLERANCE;
process.stdout.write(
  `CPU per authorization (all-in-one, ${rate}/s for ${seconds} s): ${measuredMs} ms (recorded ${recordedMs} ms); ` +
    `floor ${floorMs} ms per request; platform/floor ${ratio.toFixed(2)}x, recorded ${recordedRatio}x, limit ${limit.toFixed(2)}x; ` +
    `${result.approved} approved, ${result.failed} failed; ${ledgerAudit.undecided} undecided, ${ledgerAudit.problems.length} ledger problems\n`,
);
if (ledgerAudit.undecided > 0 || ledgerAudit.problems.length > 0) {
  process.stdout.write(
    `FAIL: ${ledgerAudit.undecided} authorizations undecided; ledger: ${ledgerAudit.problems.join("; ") || "exact"}\n`,
  );
  process.exit(1);
}
if (result.failed > 0 || ratio > limit) {
  process.stdout.write(result.failed > 0 ? "FAIL: authorizations failed\n" : "FAIL: CPU per authorization regressed\n");
  process.exit(1);
}
