import type { Consumer } from "kafkajs";
import type { Logger } from "pino";

/**
 * Offsets are committed at most this often: an offset commit is a broker request, which costs the broker as much as
 * the message itself, and kafkajs left to itself commits after every batch it hands over (whatever its autoCommit
 * interval says). After a crash the last half second is consumed again, which the consumers' inboxes make harmless
 * (at-least-once, handled once).
 */
export const OFFSET_COMMIT_INTERVAL_MS = 500;

type PartitionOffset = { topic: string; partition: number; offset: string };

export type OffsetProgress = ReturnType<typeof createOffsetProgress>;

/**
 * What a consumer has handled and not yet committed, per partition: the next offset to read. Committed within
 * OFFSET_COMMIT_INTERVAL_MS of the first message handled since the last commit. No timer runs while nothing waits to be
 * committed: a fixed interval woke an idle process twice a second per subscription (nine times a second in the engine).
 */
export function createOffsetProgress(consumer: Pick<Consumer, "commitOffsets">, logger: Logger) {
  let handled = new Map<string, PartitionOffset>();
  let timer: NodeJS.Timeout | undefined;
  const commit = async () => {
    clearTimeout(timer);
    timer = undefined;
    if (handled.size === 0) return;
    const offsets = [...handled.values()];
    handled = new Map();
    // A failed commit (a rebalance, the broker away) only means those messages may be consumed again.
    await consumer
      .commitOffsets(offsets)
      .catch((err: unknown) => logger.debug({ err }, "offset commit failed; the messages may be consumed again"));
  };
  return {
    handled(topic: string, partition: number, lastOffset: string) {
      handled.set(`${topic}:${partition}`, { topic, partition, offset: (BigInt(lastOffset) + 1n).toString() });
      if (timer === undefined) {
        timer = setTimeout(() => void commit(), OFFSET_COMMIT_INTERVAL_MS);
        timer.unref();
      }
    },
    /** Commits what is left at once (before the consumer disconnects). */
    close: () => commit(),
    /** Forgets what was not committed (its messages are consumed again). */
    drop() {
      clearTimeout(timer);
      timer = undefined;
      handled = new Map();
    },
  };
}
