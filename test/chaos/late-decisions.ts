/**
 * Where the late decisions' time went, from the engines' own `decision applied late` lines (decision-lateness.ts):
 * per what applied them, how many and the mean, 90th percentile and largest of each phase (how late it started, its
 * group's turn, the wait for a connection, the transaction), and how many fell in each second of the run. The checks
 * count the late decisions; this says which part of the path to look at.
 */
const PHASES = ["lateMs", "startedLateMs", "queuedMs", "connectionWaitMs", "transactionMs"] as const;

interface LateLine {
  appliedBy: string;
  atMs: number;
  phases: Partial<Record<(typeof PHASES)[number], number>>;
}

function parseLateLine(line: string): LateLine | undefined {
  if (!line.startsWith("{") || !line.includes('"decision applied late"')) return undefined;
  try {
    const entry = JSON.parse(line) as Record<string, unknown>;
    if (entry.msg !== "decision applied late" || typeof entry.appliedBy !== "string") return undefined;
    const atMs = Date.parse(String(entry.time));
    const phases: LateLine["phases"] = {};
    for (const phase of PHASES) if (typeof entry[phase] === "number") phases[phase] = entry[phase];
    return { appliedBy: entry.appliedBy, atMs, phases };
  } catch {
    return undefined;
  }
}

const mean = (values: number[]) =>
  values.length === 0 ? "-" : String(Math.round(values.reduce((a, b) => a + b, 0) / values.length));

/** The value below which `share` of them fall (nearest rank). */
const percentile = (values: number[], share: number) =>
  values.length === 0 ? "-" : String([...values].sort((a, b) => a - b)[Math.ceil(share * values.length) - 1]);

const lateLines = (outputs: Array<{ text: string }>) =>
  outputs.flatMap(({ text }) =>
    text.split("\n").flatMap((line) => {
      const parsed = parseLateLine(line);
      return parsed ? [parsed] : [];
    }),
  );

/** The second of the run (from `startedAt`, epoch ms) each late decision was applied in. */
export function lateDecisionSeconds(outputs: Array<{ text: string }>, startedAt: number): number[] {
  return lateLines(outputs).map((l) => Math.floor((l.atMs - startedAt) / 1_000));
}

/** One line per way of applying, then the count per second of the run (`startedAt`: the run's start, epoch ms). */
export function lateDecisionPhases(outputs: Array<{ text: string }>, startedAt: number): string {
  const late = lateLines(outputs);
  if (late.length === 0) return "decisions the engines applied later than deadline + 250 ms: none";
  const byWay = new Map<string, LateLine[]>();
  for (const l of late) byWay.set(l.appliedBy, [...(byWay.get(l.appliedBy) ?? []), l]);
  const ways = [...byWay].map(([way, lines]) => {
    const values = (p: (typeof PHASES)[number]) => lines.flatMap((l) => l.phases[p] ?? []);
    const each = (stat: (v: number[]) => string) => PHASES.map((p) => `${p} ${stat(values(p))}`).join(", ");
    return [
      `  ${way}: ${lines.length}, mean ${each(mean)}`,
      `    p90 ${each((v) => percentile(v, 0.9))}`,
      `    max ${each((v) => percentile(v, 1))}`,
    ].join("\n");
  });
  const perSecond = new Map<number, number>();
  for (const l of late) {
    const second = Math.floor((l.atMs - startedAt) / 1_000);
    perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
  }
  const seconds = [...perSecond].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`);
  return [
    "decisions the engines applied later than deadline + 250 ms (their own log, after the commit), by what applied them:",
    ...ways,
    `  by the second of the run they were applied in: ${seconds.join(", ")}`,
  ].join("\n");
}
