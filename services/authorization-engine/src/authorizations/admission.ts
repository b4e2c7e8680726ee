import { AppError } from "@cardhold/platform";

export interface AdmissionOptions {
  /** New authorization requests being taken at once (reading the card, holding funds); beyond, a new one is refused. */
  maxInProgress?: number;
  /** A request that already waited this long before it reached the engine is refused: the platform is saturated. */
  maxQueuedMs?: number;
  /** Called for each refused request (the engine counts them: authorizations_shed_total). */
  onShed?: () => void;
  now?: () => number;
}

export interface Admission {
  /** Runs `take` when the engine can take one more new authorization now; refuses at once (503) otherwise. */
  admit<T>(arrivedAt: number | undefined, take: () => Promise<T>): Promise<T>;
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
 * transaction events), so deciding the excess by default only lengthens the queue. Refusing it at once, before it
 * costs anything, keeps the answers to the admitted ones on time. Measured (bench/README.md): deciding requests that
 * waited 1.5–2.5 s by their default instead of asking made a 3× overload answer 775 requests late; refusing them did
 * not. Amount changes and reversals are never refused.
 */
export function createAdmission(opts: AdmissionOptions = {}): Admission {
  const maxInProgress = opts.maxInProgress ?? 256;
  const maxQueuedMs = opts.maxQueuedMs ?? 2_000;
  const now = opts.now ?? Date.now;
  let inProgress = 0;
  return {
    async admit(arrivedAt, take) {
      if (inProgress >= maxInProgress || (arrivedAt !== undefined && now() - arrivedAt > maxQueuedMs)) {
        opts.onShed?.();
        throw overloaded();
      }
      inProgress += 1;
      try {
        return await take();
      } finally {
        inProgress -= 1;
      }
    },
  };
}
