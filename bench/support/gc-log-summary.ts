/**
 * Summarizes a GC log written by bench/support/gc-log.mjs over its last `--seconds` (default 60), less the final
 * `--skip-end` seconds (default 4: the platform stopping):
 *   npx tsx bench/support/gc-log-summary.ts [--file /tmp/gc-log.jsonl] [--seconds 60] [--skip-end 4]
 * Prints the old generation's growth in KB a second (what was promoted or allocated there between collections) and
 * the count and pauses of each kind of collection.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    file: { type: "string", default: "/tmp/gc-log.jsonl" },
    seconds: { type: "string", default: "60" },
    "skip-end": { type: "string", default: "4" },
  },
});

interface GcLine {
  at: number;
  ms?: number;
  kind?: number;
  oldKB?: number;
}

const lines = readFileSync(values.file, "utf8")
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l) as GcLine);
const end = lines.at(-1)!.at - Number(values["skip-end"]) * 1000;
const start = end - Number(values.seconds) * 1000;
const inWindow = lines.filter((l) => l.at >= start && l.at <= end);
const sizes = inWindow.filter((l) => l.oldKB !== undefined).map((l) => l.oldKB!);
const grown = sizes.slice(1).reduce((sum, size, i) => sum + Math.max(0, size - sizes[i]!), 0);
const seconds = (end - start) / 1000;
const pauses = (kind: number) => inWindow.filter((l) => l.kind === kind).map((l) => Number(l.ms!.toFixed(1)));
const kinds = { youngGeneration: pauses(1), full: pauses(4), incrementalMarking: pauses(8) };
console.log(
  JSON.stringify({
    seconds,
    oldGenerationGrowthKBPerSecond: Math.round(grown / seconds),
    ...Object.fromEntries(
      Object.entries(kinds).map(([name, ms]) => [
        name,
        { count: ms.length, totalMs: Number(ms.reduce((a, b) => a + b, 0).toFixed(1)), maxMs: Math.max(0, ...ms) },
      ]),
    ),
  }),
);
