/**
 * CI's regression check on the real-time path: a short all-in-one capture run (bench/authorization.bench.ts) must
 * spend at most 1.5x the recorded CPU per authorization (bench/cpu-baseline.json), with every authorization decided and
 * the ledger exact afterwards (the bench's ledger audit). CPU time, not wall time: it holds on a busy machine far
 * better than latency does.
 *   npx tsx bench/cpu-regression.ts
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

const TOLERANCE = 1.5;
const baseline = JSON.parse(readFileSync(new URL("./cpu-baseline.json", import.meta.url), "utf8")) as {
  allInOne: { rate: number; seconds: number; cpuMsPerAuthorization: number };
};
const { rate, seconds, cpuMsPerAuthorization: recorded } = baseline.allInOne;
const output = execFileSync(
  process.execPath,
  [
    "--import",
    "tsx",
    "bench/authorization.bench.ts",
    "--mode",
    "all-in-one",
    "--rates",
    String(rate),
    "--seconds",
    String(seconds),
  ],
  { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
);
const lines = output
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line) as Record<string, unknown>);
const result = lines.find((line) => "mode" in line) as {
  approved: number;
  failed: number;
  cpuMsPerAuthorization: { total: number };
};
const { ledgerAudit } = lines.find((line) => "ledgerAudit" in line) as {
  ledgerAudit: { undecided: number; problems: string[] };
};
const measured = result.cpuMsPerAuthorization.total;
const limit = recorded * TOLERANCE;
process.stdout.write(
  `CPU per authorization (all-in-one, ${rate}/s for ${seconds} s): ${measured} ms; recorded ${recorded} ms, limit ${limit.toFixed(1)} ms; ` +
    `${result.approved} approved, ${result.failed} failed; ${ledgerAudit.undecided} undecided, ${ledgerAudit.problems.length} ledger problems\n`,
);
if (ledgerAudit.undecided > 0 || ledgerAudit.problems.length > 0) {
  process.stdout.write(
    `FAIL: ${ledgerAudit.undecided} authorizations undecided; ledger: ${ledgerAudit.problems.join("; ") || "exact"}\n`,
  );
  process.exit(1);
}
if (result.failed > 0 || measured > limit) {
  process.stdout.write(result.failed > 0 ? "FAIL: authorizations failed\n" : "FAIL: CPU per authorization regressed\n");
  process.exit(1);
}
