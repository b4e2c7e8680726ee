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
}

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
 */
export function createAdmission(opts: AdmissionOptions = {}): Admission {
  const maxInProgress = opts.maxInProgress ?? 128;
  const perTenant = opts.maxInProgressPerTenant ?? Math.max(1, Math.floor((maxInProgress * 3) / 4));
  const maxQueuedMs = opts.maxQueuedMs ?? 2_000;
  const now = opts.now ?? Date.now;
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
  const mayTake = (tenant: string) => inProgress < maxInProgress && (held.get(tenant) ?? 0) < perTenant;
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

  const release = (tenant: string) => {
    inProgress -= 1;
    const left = held.get(tenant)! - 1;
    if (left === 0) held.delete(tenant);
    else held.set(tenant, left);
    const next = waiting.findIndex((w) => mayTake(w.tenant));
    if (next < 0) return;
    const [waiter] = waiting.splice(next, 1);
    take(waiter!.tenant);
    waiter!.handOver();
  };

  return {
    state: () => ({ inProgress, waiting: waiting.length }),
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
