import { scrape, type Sample } from "../support/metrics-scrape";

const PLACES = "authorization_admission_places";

export interface PlacesReading {
  instance: string;
  places: number;
}

/**
 * One line for the readings of a stretch: each engine's admission places (authorization_admission_places) from its
 * smallest to its largest, or "down" when no scrape of it answered. Undefined when there is nothing to say.
 */
export function placesLine(readings: PlacesReading[], instances: string[]): string | undefined {
  if (instances.length === 0) return undefined;
  const parts = instances.map((instance) => {
    const seen = readings.filter((r) => r.instance === instance).map((r) => r.places);
    if (seen.length === 0) return `${instance} down`;
    const low = Math.min(...seen);
    const high = Math.max(...seen);
    return low === high ? `${instance} ${low}` : `${instance} ${low}–${high}`;
  });
  return `engine admission places: ${parts.join(", ")}`;
}

const placesIn = (samples: Sample[]) => samples.find((s) => s.name === PLACES)?.value;

/**
 * Reads every engine's places each second (a killed instance simply does not answer) and logs them every 5 s, so a
 * run shows when the places shrank (a slow machine, or a slow database) beside the receiver's answer times.
 */
export function probeAdmissionPlaces(
  engines: () => Array<{ id: string; url: string }>,
  log: (line: string) => void,
): () => void {
  let readings: PlacesReading[] = [];
  const read = setInterval(() => {
    for (const engine of engines())
      void scrape(engine.url).then(
        (samples) => {
          const places = placesIn(samples);
          if (places !== undefined) readings.push({ instance: engine.id, places });
        },
        () => undefined,
      );
  }, 1_000);
  const report = setInterval(() => {
    const line = placesLine(
      readings,
      engines().map((e) => e.id),
    );
    readings = [];
    if (line) log(line);
  }, 5_000);
  return () => {
    clearInterval(read);
    clearInterval(report);
  };
}
