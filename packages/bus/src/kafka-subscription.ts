import type { Consumer, Kafka, KafkaMessage } from "kafkajs";
import type { Logger } from "pino";
import { MAX_BATCH, MESSAGE_ID_HEADER, type IncomingMessage, type OutgoingMessage, type Subscription } from "./bus";
import { guardedHandling, type PoisonPolicy, UnreadableMessage } from "./poison";
import { createOffsetProgress, type OffsetProgress } from "./offset-progress";
import { handleInSpan } from "./trace-context";

export interface SubscriptionSettings {
  kafka: Kafka;
  logger: Logger;
  poison?: PoisonPolicy;
  /** Partitions handled side by side per consumer (default 3). */
  partitions?: number;
  sessionTimeoutMs: number;
  heartbeatIntervalMs: number;
  fetchWaitMs: number;
  /** First wait before a consumer kafkajs gave up on is started again (doubling to 10 s while it fails). */
  restartDelayMs?: number;
  /** Sends dead letters. */
  send(messages: OutgoingMessage[]): Promise<void>;
  /** Every handling under way, so the bus's stop can wait for them. */
  handling: Set<Promise<void>>;
  isStopping(): boolean;
}

export interface RunningSubscription {
  /** Commits what was handled and leaves the group; no restart after it. */
  close(): Promise<void>;
}

const MAX_RESTART_DELAY_MS = 10_000;

/**
 * One subscription's kafkajs consumer, kept running. kafkajs restarts a consumer that crashed on a retriable error
 * itself, and gives up for good on any other: a broker restart can end in `KafkaJSGroupCoordinatorNotFound` (kafkajs
 * issue 1445), and the group's partitions would then stall while the process runs on. Such a consumer, or one whose
 * first start failed, is replaced by a new one, again and again until it runs; messages wait at the committed offsets.
 */
export async function startSubscription(
  settings: SubscriptionSettings,
  subscription: Subscription,
): Promise<RunningSubscription> {
  const { logger } = settings;
  const group = subscription.group;
  const handle = handlingOf(settings, subscription);
  let current: { consumer: Consumer; progress: OffsetProgress } | undefined;
  let closed = false;
  const ended = () => closed || settings.isStopping();

  const begin = async () => {
    const consumer = settings.kafka.consumer({
      groupId: group,
      allowAutoTopicCreation: false,
      sessionTimeout: settings.sessionTimeoutMs,
      heartbeatInterval: settings.heartbeatIntervalMs,
      maxWaitTimeInMs: settings.fetchWaitMs,
      // kafkajs's consumer default (5 retries, the client's timings), and a join still under way when the bus stops
      // must not bring the consumer back after its disconnect.
      retry: { retries: 5, restartOnFailure: async () => !ended() },
    });
    const progress = createOffsetProgress(consumer, logger);
    current = { consumer, progress };
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (payload.restart || ended() || current?.consumer !== consumer) return;
      logger.error({ err: payload.error, group }, "kafkajs gave up on a consumer; a new one takes its place");
      replace(consumer, progress);
    });
    try {
      await consumer.connect();
      await consumer.subscribe({ topics: subscription.topics, fromBeginning: true });
    } catch (error) {
      progress.drop();
      await consumer.disconnect().catch(() => undefined);
      throw error;
    }
    // Not awaited: kafkajs resolves run() only once the group is joined, and after a crash the join waits for the
    // dead member's session to end (6 s) and a rebalance per group. Messages wait at the group's committed offsets
    // meanwhile, so a restarted service serves its HTTP requests and runs its workers at once.
    consumer
      .run({
        // Partitions are independent (order is per key), so handle them side by side.
        partitionsConsumedConcurrently: settings.partitions ?? 3,
        autoCommit: false,
        eachBatchAutoResolve: false,
        eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
          const chunkSize = subscription.batchHandler ? MAX_BATCH : 1;
          for (let i = 0; i < batch.messages.length && isRunning() && !isStale() && !ended(); i += chunkSize) {
            const chunk = batch.messages
              .slice(i, i + chunkSize)
              .map((m) => toIncoming(batch.topic, batch.partition, m));
            const handled = handle(chunk).catch((error: unknown) => {
              throw new HandlingFailed(error);
            });
            settings.handling.add(handled);
            await handled.finally(() => settings.handling.delete(handled));
            const last = chunk.at(-1)!.offset;
            resolveOffset(last);
            progress.handled(batch.topic, batch.partition, last);
            await heartbeat();
          }
        },
      })
      .catch((err: unknown) => {
        if (ended() || current?.consumer !== consumer) return;
        logger.error({ err, group }, "consumer could not start; a new one takes its place");
        replace(consumer, progress);
      });
  };

  const replace = (dead: Consumer, progress: OffsetProgress) => {
    progress.drop();
    void (async () => {
      await dead.disconnect().catch(() => undefined);
      let delay = settings.restartDelayMs ?? 1_000;
      while (!ended()) {
        await new Promise((resolve) => setTimeout(resolve, delay));
        if (ended()) return;
        try {
          await begin();
          logger.warn({ group }, "consumer started again");
          return;
        } catch (err) {
          logger.error({ err, group, retryInMs: delay }, "consumer did not start; trying again");
          delay = Math.min(delay * 2, MAX_RESTART_DELAY_MS);
        }
      }
    })();
  };

  await begin();
  return {
    async close() {
      closed = true;
      if (!current) return;
      await current.progress.close();
      await current.consumer.disconnect();
    },
  };
}

function handlingOf(settings: SubscriptionSettings, subscription: Subscription) {
  const { handler, batchHandler, group } = subscription;
  return guardedHandling({
    group,
    policy: settings.poison,
    run: (messages) =>
      handleInSpan(group, messages, () => (batchHandler ? batchHandler(messages) : handler!(messages[0]!))),
    setAside: (deadLetter) => settings.send([deadLetter]),
    onSetAside: (message, err) =>
      settings.logger.error(
        { err, group, topic: message.topic, messageId: message.id, offset: message.offset },
        "message set aside on dead-letters.v1: its handler cannot take it",
      ),
  });
}

function toIncoming(topic: string, partition: number, message: KafkaMessage): IncomingMessage {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers ?? {})) {
    if (value !== undefined) headers[name] = String(value);
  }
  const text = message.value?.toString("utf8");
  return {
    id: headers[MESSAGE_ID_HEADER] ?? `${topic}:${partition}:${message.offset}`,
    topic,
    key: message.key?.toString("utf8") ?? "",
    value: text === undefined ? null : readJson(text),
    headers,
    partition,
    offset: message.offset,
  };
}

function readJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return new UnreadableMessage(text);
  }
}

/**
 * What a failed handling is thrown to kafkajs as. kafkajs gives up on a consumer for good when what eachBatch throws
 * is a TypeError, RangeError, ReferenceError or SyntaxError (a handler's bug, or a message that trips one): no retry,
 * no restart. Marked retriable (and no `cause`, which kafkajs would look through), every failure is retried and the
 * consumer restarted by kafkajs itself, and the poison guard decides when a message is set aside.
 */
class HandlingFailed extends Error {
  readonly retriable = true;
  constructor(readonly failure: unknown) {
    super(`handler failed: ${failure instanceof Error ? `${failure.name}: ${failure.message}` : String(failure)}`);
    this.name = "HandlingFailed";
  }
}
