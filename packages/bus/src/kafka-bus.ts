import { Kafka, logLevel, type Consumer, type KafkaMessage, type LogEntry, type Producer } from "kafkajs";
import type { Logger } from "pino";
import "./kafkajs-idle-timers";
import { createKafkaLagReader } from "./consumer-lag";
import { newMessageId } from "./message-id";
import { guardedHandling, type PoisonPolicy, UnreadableMessage } from "./poison";
import { handleInSpan, startPublishSpans } from "./trace-context";
import { TOPIC_SETTINGS, type Topic } from "@cardhold/contracts";
import {
  MAX_BATCH,
  MESSAGE_ID_HEADER,
  type Bus,
  type IncomingMessage,
  type OutgoingMessage,
  type Subscription,
} from "./bus";

/**
 * A member that died without leaving (SIGKILL) holds its partitions, and a member that joins waits, until its session
 * times out: nothing on those partitions moves meanwhile, and a decision there is answered by its timeout default.
 * 6 s is the broker's smallest session by default (group.min.session.timeout.ms), so it is the default here; a broker
 * that allows less lets KafkaBusOptions.sessionTimeoutMs shorten that stall (docs/operations/scaling.md).
 */
const DEFAULT_SESSION_TIMEOUT_MS = 6_000;
/** Heartbeats a third of a session apart (at most a second): two may be lost before a live member is dropped. */
const heartbeatIntervalFor = (sessionTimeoutMs: number) => Math.min(1_000, Math.floor(sessionTimeoutMs / 3));
/**
 * How long a fetch waits on the broker for new messages. kafkajs heartbeats from its fetch loop, so an idle group's
 * member is silent for this long: with kafkajs's 5 s and a 2 s session, idle members were dropped and rejoined over
 * and over (249 members removed in one chaos run). Kept at 5 s for sessions of 6 s and more (fewer idle fetches).
 */
const fetchWaitFor = (sessionTimeoutMs: number) =>
  sessionTimeoutMs >= DEFAULT_SESSION_TIMEOUT_MS ? 5_000 : Math.floor(sessionTimeoutMs / 4);

export interface KafkaBusOptions {
  brokers: string[];
  clientId: string;
  logger: Logger;
  /** Topics this process creates at start if they do not exist. */
  topics: Topic[];
  partitions?: number;
  replicationFactor?: number;
  /** How often the consumer lag of this bus's groups is read (default 5 s). */
  lagIntervalMs?: number;
  /** When a message its handler keeps failing on is set aside (poison.ts; default 5 attempts over 60 s). */
  poison?: PoisonPolicy;
  /**
   * How long a consumer group waits for a member that stopped heartbeating (a crashed process) before handing its
   * partitions to the others (default 6 s; the broker's group.min.session.timeout.ms must allow it).
   */
  sessionTimeoutMs?: number;
}

const KAFKA_TO_PINO: Record<number, "error" | "warn" | "info" | "debug"> = {
  [logLevel.ERROR]: "error",
  [logLevel.WARN]: "warn",
  [logLevel.INFO]: "info",
  [logLevel.DEBUG]: "debug",
};

function kafkaLogCreator(logger: Logger) {
  return () =>
    ({ level, log }: LogEntry) => {
      const { message, ...extra } = log;
      logger[KAFKA_TO_PINO[level] ?? "info"]({ kafka: extra }, message);
    };
}

/**
 * Offsets are committed at most this often: an offset commit is a broker request, which costs the broker as much as
 * the message itself, and kafkajs left to itself commits after every batch it hands over (whatever its autoCommit
 * interval says). After a crash the last half second is consumed again, which the consumers' inboxes make harmless
 * (at-least-once, handled once).
 */
const OFFSET_COMMIT_INTERVAL_MS = 500;

type PartitionOffset = { topic: string; partition: number; offset: string };

/** What a consumer has handled and not yet committed, per partition: the next offset to read. */
function createOffsetProgress(consumer: Consumer, logger: Logger) {
  let handled = new Map<string, PartitionOffset>();
  const commit = async () => {
    if (handled.size === 0) return;
    const offsets = [...handled.values()];
    handled = new Map();
    // A failed commit (a rebalance, the broker away) only means those messages may be consumed again.
    await consumer
      .commitOffsets(offsets)
      .catch((err: unknown) => logger.debug({ err }, "offset commit failed; the messages may be consumed again"));
  };
  const timer = setInterval(() => void commit(), OFFSET_COMMIT_INTERVAL_MS);
  timer.unref();
  return {
    handled(topic: string, partition: number, lastOffset: string) {
      handled.set(`${topic}:${partition}`, { topic, partition, offset: (BigInt(lastOffset) + 1n).toString() });
    },
    /** Commits what is left and stops the timer (before the consumer disconnects). */
    async close() {
      clearInterval(timer);
      await commit();
    },
  };
}

/** The bus over Kafka: an idempotent producer (acks=all) and one kafkajs consumer per subscription group. */
export function createKafkaBus(opts: KafkaBusOptions): Bus {
  const kafka = new Kafka({
    clientId: opts.clientId,
    brokers: opts.brokers,
    logLevel: logLevel.WARN,
    logCreator: kafkaLogCreator(opts.logger.child({ component: "kafka" })),
    retry: { retries: 8, initialRetryTime: 200 },
  });
  const admin = kafka.admin();
  const sessionTimeoutMs = opts.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS;
  const producer: Producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
  });
  const consumers: { consumer: Consumer; progress: ReturnType<typeof createOffsetProgress> }[] = [];
  let stopping = false;
  const handling = new Set<Promise<void>>();
  const subscribed = new Map<string, readonly string[]>();
  const lag = createKafkaLagReader({
    admin,
    logger: opts.logger,
    groups: () => subscribed,
    intervalMs: opts.lagIntervalMs,
  });

  const createTopics = async () => {
    await admin.createTopics({
      waitForLeaders: true,
      topics: opts.topics.map((topic) => ({
        topic,
        numPartitions: opts.partitions ?? 3,
        replicationFactor: opts.replicationFactor ?? 1,
        configEntries: TOPIC_SETTINGS[topic]?.compacted ? [{ name: "cleanup.policy", value: "compact" }] : [],
      })),
    });
  };

  const send = async (messages: OutgoingMessage[]) => {
    const byTopic = new Map<string, OutgoingMessage[]>();
    for (const m of messages) byTopic.set(m.topic, [...(byTopic.get(m.topic) ?? []), m]);
    await producer.sendBatch({
      acks: -1,
      topicMessages: [...byTopic].map(([topic, list]) => ({
        topic,
        messages: list.map((m) => ({
          key: m.key,
          value: m.value === null ? null : JSON.stringify(m.value),
          headers: { ...m.headers, [MESSAGE_ID_HEADER]: m.id ?? newMessageId() },
        })),
      })),
    });
  };

  return {
    crossProcess: true,
    async start() {
      await admin.connect();
      await createTopics();
      await producer.connect();
      lag.start();
    },
    async publish(outgoing: OutgoingMessage[]) {
      if (outgoing.length === 0) return;
      const spans = startPublishSpans(outgoing);
      await send(spans.messages).then(
        () => spans.end(),
        (error: unknown) => {
          spans.end(error);
          throw error;
        },
      );
    },
    async subscribe(subscription: Subscription) {
      const consumer = kafka.consumer({
        groupId: subscription.group,
        allowAutoTopicCreation: false,
        sessionTimeout: sessionTimeoutMs,
        heartbeatInterval: heartbeatIntervalFor(sessionTimeoutMs),
        maxWaitTimeInMs: fetchWaitFor(sessionTimeoutMs),
        // kafkajs's consumer default (5 retries, the client's timings), and a join still under way when the bus stops
        // must not bring the consumer back after its disconnect.
        retry: { retries: 5, restartOnFailure: async () => !stopping },
      });
      const progress = createOffsetProgress(consumer, opts.logger);
      consumers.push({ consumer, progress });
      await consumer.connect();
      await consumer.subscribe({ topics: subscription.topics, fromBeginning: true });
      subscribed.set(subscription.group, subscription.topics);
      const toIncoming = (topic: string, partition: number, message: KafkaMessage): IncomingMessage => {
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
      };
      const { handler, batchHandler } = subscription;
      const chunkSize = batchHandler ? MAX_BATCH : 1;
      const handle = guardedHandling({
        group: subscription.group,
        policy: opts.poison,
        run: (messages) =>
          handleInSpan(subscription.group, messages, () =>
            batchHandler ? batchHandler(messages) : handler!(messages[0]!),
          ),
        setAside: (deadLetter) => send([deadLetter]),
        onSetAside: (message, err) =>
          opts.logger.error(
            { err, group: subscription.group, topic: message.topic, messageId: message.id, offset: message.offset },
            "message set aside on dead-letters.v1: its handler cannot take it",
          ),
      });
      // Not awaited: kafkajs resolves run() only once the group is joined, and after a crash the join waits for the
      // dead member's session to end (6 s) and a rebalance per group. Messages wait at the group's committed offsets
      // meanwhile, so a restarted service serves its HTTP requests and runs its workers at once.
      const running = consumer.run({
        // Partitions are independent (order is per key), so handle them side by side.
        partitionsConsumedConcurrently: opts.partitions ?? 3,
        autoCommit: false,
        eachBatchAutoResolve: false,
        eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
          for (let i = 0; i < batch.messages.length && isRunning() && !isStale() && !stopping; i += chunkSize) {
            const chunk = batch.messages
              .slice(i, i + chunkSize)
              .map((m) => toIncoming(batch.topic, batch.partition, m));
            const handled = handle(chunk).catch((error: unknown) => {
              throw new HandlingFailed(error);
            });
            handling.add(handled);
            await handled.finally(() => handling.delete(handled));
            const last = chunk.at(-1)!.offset;
            resolveOffset(last);
            progress.handled(batch.topic, batch.partition, last);
            await heartbeat();
          }
        },
      });
      running.catch((err: unknown) =>
        opts.logger.error({ err, group: subscription.group }, "consumer could not start; its messages wait"),
      );
    },
    async ready() {
      try {
        await admin.describeCluster();
        return true;
      } catch {
        return false;
      }
    },
    consumerLag: () => lag.latest(),
    async stop() {
      // Handlers stop taking messages, then what they handled is committed, then the consumers leave their groups.
      stopping = true;
      lag.stop();
      await Promise.allSettled([...handling]);
      await Promise.allSettled(consumers.map(({ progress }) => progress.close()));
      await Promise.allSettled(consumers.map(({ consumer }) => consumer.disconnect()));
      await producer.disconnect().catch(() => undefined);
      await admin.disconnect().catch(() => undefined);
    },
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
 * no restart, the group's partitions stalled while the process runs on. Marked retriable (and no `cause`, which
 * kafkajs would look through), every failure is retried and the consumer restarted, and the poison guard decides
 * when a message is set aside.
 */
class HandlingFailed extends Error {
  readonly retriable = true;
  constructor(readonly failure: unknown) {
    super(`handler failed: ${failure instanceof Error ? `${failure.name}: ${failure.message}` : String(failure)}`);
    this.name = "HandlingFailed";
  }
}
