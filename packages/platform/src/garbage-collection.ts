import { setFlagsFromString } from "node:v8";

/** How much the old generation may grow after a full collection before the next one: 100 %, double. */
const OLD_GENERATION_GROWTH_PERCENT = 100;

/**
 * Sets how V8 collects this process's garbage, before it serves anything:
 * - No allocation-site pretenuring. V8 allocates objects of an allocation site straight in the old generation once
 *   enough of them outlived a young-generation collection; the objects of a request (result rows, records, HTTP
 *   parts) live for milliseconds, but one burst or one long wait is enough to tenure their sites, and from then on
 *   every request's garbage fills the old generation. Measured (bench/README.md, twenty-sixth session): 20
 *   authorizations a second in the all-in-one grew the old generation by 401–414 KB a second with it, 229–237 without.
 * - The old generation may double before its next full collection. V8 lets it grow by a factor it picks from its own
 *   speeds: near 1.1 for this platform's heap (~4 for some others, where doubling means more collections). At 250
 *   authorizations a second the all-in-one's old generation grows ~1.5 MB a second, so V8 ran a full collection every
 *   3.5 s, each stalling a dozen answers 30–80 ms on two cores; doubled, 2–3 in 40–60 s instead of 9–15, for a few
 *   dozen MB more (bench/README.md, twenty-seventh session).
 */
export function tuneGarbageCollector(): void {
  setFlagsFromString("--no-allocation-site-pretenuring");
  setFlagsFromString(`--heap-growing-percent=${OLD_GENERATION_GROWTH_PERCENT}`);
}
