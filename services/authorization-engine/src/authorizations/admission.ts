import { AppError } from "@cardhold/platform";

export interface AdmissionOptions {
  /**
   * New authorizations under way at once, from admission until they are decided (or the request stops waiting);
   * beyond, a new request waits for a place until its queueing budget is spent, then is refused. 128 by default: the
   * work they stand for is about a second of CPU, well inside a decision window.
   */
  maxInProgress?: number;
  /** A request that already waited this long since it reached the platform is refused: the platform is saturated. */
  maxQueuedMs?: number;
  /** Called for each refused request (the engine counts them: authorizations_shed_total). */
  onShed?: () => void;
  now?: () => number;
}

export interface Admission {
  /**
   * Runs `take` (the request and the wait for its decision) when a place is free, waiting for one until the request
   * has been queued `maxQueuedMs` since `arrivedAt` (or since now); refuses it (503) then.
   */
  admit<T>(arrivedAt: number | undefined, take: () => Promise<T>): Promise<T>;
  /**
   * Refuses (503, before anything is written) a request that has waited longer than allowed by `now`: called once the
   * request has its database connection, since waiting for one is queueing too.
   */
  ensureInTime(arrivedAt: number | undefined, now: number): void;
  /** Places taken now, and requests waiting for one (the engine's gauges). */
  state(): { inProgress: number; waiting: number };
}

export const overloaded = () =>
  new AppError(
    503,
    "platform-overloaded",
    "The platform is overloaded: the authorization request was refused before anything was created, so that no answer " +
      "comes after the network's deadline. Nothing was held or charged; the network may stand in or send it again.",
  );

/**
 * Load shedding for new authorization requests. Past saturation, every request that waits in a queue is answered
 * late, however it is decided: a timeout default costs nearly what an answer does (the database, the closed and
 * transaction events), so deciding the excess by default only lengthens the queue. A request waits for a place (a
 * burst is taken in turn) only while it can still be answered on time; then it is refused, before it costs
 * anything, which keeps the answers to the admitted ones on time. The places cover an authorization until it is
 * decided, not only its first transaction: admitted work that the platform cannot finish (deliveries, decisions) is
 * what made answers late. Measured (bench/README.md): deciding requests that waited 1.5–2.5 s by their default
 * instead of asking made a 3× overload answer 775 requests late; refusing them did not. Amount changes and reversals
 * are never refused.
 */
export function createAdmission(opts: AdmissionOptions = {}): Admission {
  const maxInProgress = opts.maxInProgress ?? 128;
  const maxQueuedMs = opts.maxQueuedMs ?? 2_000;
  const now = opts.now ?? Date.now;
  let inProgress = 0;
  /** Requests waiting for a place, oldest first; a place that frees up is handed to the first one. */
  const waiting: Array<() => void> = [];
  const waitedTooLong = (arrivedAt: number | undefined, at: number) =>
    arrivedAt !== undefined && at - arrivedAt > maxQueuedMs;
  const refuse = () => {
    opts.onShed?.();
    return overloaded();
  };

  const place = (arrivedAt: number) =>
    new Promise<void>((resolve, reject) => {
      const handOver = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(
        () => {
          const at = waiting.indexOf(handOver);
          if (at >= 0) waiting.splice(at, 1);
          reject(refuse());
        },
        Math.max(0, arrivedAt + maxQueuedMs - now()),
      );
      waiting.push(handOver);
    });

  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else inProgress -= 1;
  };

  return {
    state: () => ({ inProgress, waiting: waiting.length }),
    ensureInTime(arrivedAt, at) {
      if (waitedTooLong(arrivedAt, at)) throw refuse();
    },
    async admit(arrivedAt, take) {
      const at = now();
      if (waitedTooLong(arrivedAt, at)) throw refuse();
      if (inProgress < maxInProgress) inProgress += 1;
      else await place(arrivedAt ?? at);
      try {
        return await take();
      } finally {
        release();
      }
    },
  };
}
