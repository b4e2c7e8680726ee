/** One line of a Prometheus text scrape. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g;

/** Parses a Prometheus text exposition into its samples (comments skipped). */
export function parseSamples(text: string): Sample[] {
  return text.split("\n").flatMap((line) => {
    const m = LINE.exec(line);
    if (!m) return [];
    const labels = Object.fromEntries([...(m[2] ?? "").matchAll(LABEL)].map((l) => [l[1]!, l[2]!]));
    return [{ name: m[1]!, labels, value: Number(m[3]) }];
  });
}

/** A service's /metrics, parsed. */
export async function scrape(baseUrl: string, headers: Record<string, string> = {}): Promise<Sample[]> {
  const res = await fetch(`${baseUrl}/metrics`, { headers });
  if (res.status !== 200) throw new Error(`GET /metrics answered ${res.status}`);
  return parseSamples(await res.text());
}

/** The value of the sample with this name and (at least) these labels; fails when none is exposed. */
export function sampleOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (!found) throw new Error(`no sample ${name}${JSON.stringify(labels)} in the scrape`);
  return found.value;
}
