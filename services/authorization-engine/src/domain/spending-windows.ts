/** Where each period that a card's spending limits count over starts (UTC calendar periods). */
import type { LIMIT_INTERVALS } from "@cardhold/contracts";

export type LimitInterval = (typeof LIMIT_INTERVALS)[number];

/** The start of the current period of `interval` at `now` (epoch ms); 0 for all-time; null for per-authorization. */
export function intervalStart(interval: LimitInterval, now: number): number | null {
  const d = new Date(now);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const day = d.getUTCDate();
  switch (interval) {
    case "per-authorization":
      return null;
    case "daily":
      return Date.UTC(y, m, day);
    case "weekly":
      // Weeks start on Monday (ISO 8601).
      return Date.UTC(y, m, day - ((d.getUTCDay() + 6) % 7));
    case "monthly":
      return Date.UTC(y, m, 1);
    case "yearly":
      return Date.UTC(y, 0, 1);
    case "all-time":
      return 0;
  }
}
