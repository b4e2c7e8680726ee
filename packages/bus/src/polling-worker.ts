import type { Logger } from "pino";
import { createWakeableSleep } from "./wakeable-sleep";

export interface PollingWorker {
  start(): void;
  /** There is work now: run the next step without waiting for the poll. */
  wake(): void;
  /** Finishes the step under way, then stops. */
  stop(): Promise<void>;
}

/**
 * The loop of a background worker (outbox relay, delivery worker): run `step` again at once while it reports more
 * work, otherwise sleep `idleMs` or until woken; after a failure wait with exponential backoff (at most 5 s).
 */
export function createPollingWorker(opts: {
  name: string;
  logger: Logger;
  /** A fixed sleep, or one worked out at each sleep. */
  idleMs: number | (() => number);
  step: () => Promise<boolean>;
}): PollingWorker {
  const idle = createWakeableSleep(opts.idleMs);
  let running = false;
  let loop: Promise<void> | undefined;

  const run = async () => {
    let failures = 0;
    while (running) {
      try {
        const more = await opts.step();
        failures = 0;
        if (!more) await idle.sleep();
      } catch (err) {
        failures += 1;
        opts.logger.warn({ err, worker: opts.name, failures }, `${opts.name} failed; will retry`);
        await new Promise((r) => setTimeout(r, Math.min(100 * 2 ** failures, 5_000)));
      }
    }
  };

  return {
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    wake: idle.wake,
    async stop() {
      running = false;
      idle.wake();
      await loop;
    },
  };
}
