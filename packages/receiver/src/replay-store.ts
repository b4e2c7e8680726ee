/**
 * Where a receiver remembers the Standard Webhooks deliveries it accepted, so the same signed delivery sent again
 * (a replay: same `webhook-id` and `webhook-timestamp`) within the timestamp tolerance is refused. Past the tolerance
 * the timestamp check refuses it anyway, so nothing needs keeping longer.
 */
export interface ReplayStore {
  /**
   * Records `delivery` until `keepUntil` (ms since the epoch): true the first time, false when it is already recorded
   * and not yet expired. Several receiver processes share one store (e.g. Redis `SET key 1 NX PXAT keepUntil`).
   */
  claim(delivery: string, keepUntil: number): boolean | Promise<boolean>;
}

/** In-memory replay store (one process): expired entries are dropped as new ones come. */
export function memoryReplayStore(now: () => number = Date.now): ReplayStore {
  const seen = new Map<string, number>();
  const dropExpired = (at: number) => {
    for (const [delivery, keepUntil] of seen) if (keepUntil <= at) seen.delete(delivery);
  };
  return {
    claim(delivery, keepUntil) {
      const at = now();
      dropExpired(at);
      if (seen.has(delivery)) return false;
      seen.set(delivery, keepUntil);
      return true;
    },
  };
}
