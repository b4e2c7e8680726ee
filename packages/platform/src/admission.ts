import { AppError } from "./errors";

export interface AdmissionOptions {
  /**
   * Requests under way at once; beyond, a new request waits for a place until its queueing budget is spent, then is
   * refused. 128 by default (the engine's places: about a second of CPU, well inside a decision window).
   */
  maxInProgress?: number;
  /**
   * Places one tenant (a business) may hold at once, so that one whose requests hold their places long (a stalled
   * webhook keeps each authorization waiting its whole window) leaves room for the others. Three quarters of
   * `maxInProgress` by default.
   */
  maxInProgressPerTenant?: number;
  /** A request that already waited this long since it reached the platform is refused: the platform is saturated. */
  maxQueuedMs?: number;
  /** Called for each refused request (the engine counts them: authorizations_shed_total). */
  onShed?: () => void;
  /**
   * The engine's own part of a request (its first transaction, from having its connection to the commit) slower than
   * this means the engine or its database is short of CPU: the places shrink by a tenth (at most every 100 ms) down to
   * `minInProgress`, and grow back by one per as many faster requests as there are places; all at once on the first
   * fast request after 30 s without a slow one (QUIET_RECOVERY_MS). 100 ms by default.
   */
  slowPlatformMs?: number;
  /** The fewest places slow platform work shrinks to. 16 by default (or `maxInProgress`, if fewer). */
  minInProgress?: number;
  now?: () => number;
}

export interface Admission {
  /**
   * Runs `work` when a place is free, waiting for one until the request has been queued `maxQueuedMs` since
   * `arrivedAt` (or since now); refuses it (503) then. `tenant`: whose request it is (`maxInProgressPerTenant`).
   */
  admit<T>(arrivedAt: number | undefined, work: () => Promise<T>, tenant?: string): Promise<T>;
  /**
   * Refuses (503, before anything is written) a request that has waited longer than allowed by `now`: called once the
   * request has its database connection, since waiting for one is queueing too.
   */
  ensureInTime(arrivedAt: number | undefined, now: number): void;
  /** Places taken now, and requests waiting for one (the gauges). */
  state(): { inProgress: number; waiting: number };
  /** The places there are now: `maxInProgress`, fewer while the platform's own work is slow (`slowPlatformMs`). */
  places(): number;
  /** How long the engine's own part of an admitted request took (see `slowPlatformMs`). */
  observePlatformMs(ms: number): void;
}

/** Slow reports closer together than this shrink the places once. */
const SHRINK_SPACING_MS = 100;
/**
 * A fast report this long after the last slow one gives every place back: the slowness has passed. Growing one place
 * per window of fast reports alone would take an hour of quiet traffic (1/s) to undo a few seconds of slowness, and
 * the next burst would be refused by a platform that is well again. While it stays slow, slow reports keep coming.
 * Not 10 s: on a slow machine a chaos run had 10 s without one while the broker was down (fewer transactions ran),
 * and the places came back just before the database's outage (bench/README.md, forty-sixth session).
 */
export const QUIET_RECOVERY_MS = 30_000;

export const overloaded = () =>
  new AppError(
    503,
    "platform-overloaded",
    "The platform is overloaded: the authorization request was refused before anything was created, so that no answer " +
      "comes after the network's deadline. Nothing was held or charged; the network may stand in or send it again.",
  );

interface Waiter {
  tenant: string;
  handOver(): void;
}

/**
 * Load shedding for new authorization requests. Past saturation, every request that waits in a queue is answered
 * late, however it is decided: a timeout default costs nearly what an answer does (the database, the closed and
 * transaction events), so deciding the excess by default only lengthens the queue. A request waits for a place (a
 * burst is taken in turn) only while it can still be answered on time; then it is refused, before it costs
 * anything, which keeps the answers to the admitted ones on time. The engine's places cover an authorization until
 * it is decided, not only its first transaction: admitted work that the platform cannot finish (deliveries,
 * decisions) is what made answers late. Measured (bench/README.md): deciding requests that waited 1.5–2.5 s by their
 * default instead of asking made a 3× overload answer 775 requests late; refusing them did not. Amount changes and
 * reversals are never refused. A freed place goes to the oldest waiting request whose tenant is under its limit.
 *
 * A place covers the receiver's answer time too, which is the receiver's business, so the number of places only
 * shrinks when the platform's own work is slow: with every process short of CPU, places that shrink so decided 0–1
 * authorizations later than deadline + 250 ms instead of 36–99 with 128 fixed (bench/README.md, forty-fifth session),
 * the queues behind them being short. A stalled receiver does not shrink them: its business keeps to its share.
 */
export function createAdmission(opts: AdmissionOptions = {}): Admission {
  const maxInProgress = opts.maxInProgress ?? 128;
  const perTenant = opts.maxInProgressPerTenant ?? Math.max(1, Math.floor((maxInProgress * 3) / 4));
  const maxQueuedMs = opts.maxQueuedMs ?? 2_000;
  const now = opts.now ?? Date.now;
  const slowPlatformMs = opts.slowPlatformMs ?? 100;
  const fewestPlaces = Math.min(maxInProgress, opts.minInProgress ?? 16);
  /** Places now: maxInProgress, or fewer after slow platform work; a tenant's limit shrinks with them. */
  let places = maxInProgress;
  let lastShrunkAt = -Infinity;
  let lastSlowAt = -Infinity;
  /** Fast reports since the places last grew: one more place per `places` of them (as many as there are places). */
  let fastSinceGrowth = 0;
  let inProgress = 0;
  const held = new Map<string, number>();
  /** Requests waiting for a place, oldest first. */
  const waiting: Waiter[] = [];
  const waitedTooLong = (arrivedAt: number | undefined, at: number) =>
    arrivedAt !== undefined && at - arrivedAt > maxQueuedMs;
  const refuse = () => {
    opts.onShed?.();
    return overloaded();
  };
  const tenantPlaces = () => Math.max(1, Math.floor((perTenant * places) / maxInProgress));
  const mayTake = (tenant: string) => inProgress < places && (held.get(tenant) ?? 0) < tenantPlaces();
  const take = (tenant: string) => {
    inProgress += 1;
    held.set(tenant, (held.get(tenant) ?? 0) + 1);
  };

  const place = (arrivedAt: number, tenant: string) =>
    new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        tenant,
        handOver: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(
        () => {
          const at = waiting.indexOf(waiter);
          if (at >= 0) waiting.splice(at, 1);
          reject(refuse());
        },
        Math.max(0, arrivedAt + maxQueuedMs - now()),
      );
      waiting.push(waiter);
    });

  /** Free places go to the oldest waiting requests whose tenants are under their limit. */
  const handOver = () => {
    for (;;) {
      const next = waiting.findIndex((w) => mayTake(w.tenant));
      if (next < 0) return;
      const [waiter] = waiting.splice(next, 1);
      take(waiter!.tenant);
      waiter!.handOver();
    }
  };

  const release = (tenant: string) => {
    inProgress -= 1;
    const left = held.get(tenant)! - 1;
    if (left === 0) held.delete(tenant);
    else held.set(tenant, left);
    handOver();
  };

  /** Requests slowed by the same moment report together: one cut for them. */
  const shrink = (at: number) => {
    lastSlowAt = at;
    if (at - lastShrunkAt < SHRINK_SPACING_MS) return;
    lastShrunkAt = at;
    places = Math.max(fewestPlaces, Math.floor(places * 0.9));
  };

  return {
    state: () => ({ inProgress, waiting: waiting.length }),
    places: () => places,
    observePlatformMs(ms) {
      const at = now();
      if (ms > slowPlatformMs) return shrink(at);
      if (places === maxInProgress) return;
      const quiet = at - lastSlowAt >= QUIET_RECOVERY_MS;
      if (!quiet && ++fastSinceGrowth < places) return;
      fastSinceGrowth = 0;
      places = quiet ? maxInProgress : places + 1;
      handOver();
    },
    ensureInTime(arrivedAt, at) {
      if (waitedTooLong(arrivedAt, at)) throw refuse();
    },
    async admit(arrivedAt, work, tenant = "") {
      const at = now();
      if (waitedTooLong(arrivedAt, at)) throw refuse();
      if (mayTake(tenant)) take(tenant);
      else await place(arrivedAt ?? at, tenant);
      try {
        return await work();
      } finally {
        release(tenant);
      }
    },
  };
}
