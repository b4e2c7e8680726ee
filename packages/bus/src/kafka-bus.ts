import { Kafka, logLevel, Partitioners, type LogEntry, type Producer } from "kafkajs";
import type { Logger } from "pino";
import "./kafkajs-idle-timers";
import { createKafkaLagReader } from "./consumer-lag";
import { newMessageId } from "./message-id";
import { startSubscription, type RunningSubscription, type SubscriptionSettings } from "./kafka-subscription";
import type { PoisonPolicy } from "./poison";
import { startPublishSpans } from "./trace-context";
import { TOPIC_SETTINGS, type Topic } from "@cardhold/contracts";
import { MESSAGE_ID_HEADER, type Bus, type OutgoingMessage, type Subscription } from "./bus";

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
  /** A kafkajs client to use instead of one made from `brokers` (tests wrap one to make a consumer fail). */
  kafka?: Kafka;
  /** First wait before a consumer kafkajs gave up on is replaced (default 1 s). */
  consumerRestartDelayMs?: number;
}

const KAFKA_TO_PINO: Record<number, "error" | "warn" | "info" | "debug"> = {
  [logLevel.ERROR]: "error",
  [logLevel.WARN]: "warn",
  [logLevel.INFO]: "info",
  [logLevel.DEBUG]: "debug",
};

/**
 * kafkajs warnings printed at every start that say nothing about this deployment, logged at debug instead:
 * - the idempotent producer's limited retries "may invalidate EoS guarantees": the bus promises at-least-once, not
 *   exactly-once; a publish that gives up is published again from the outbox table, and consumers are idempotent.
 */
const STARTUP_NOTICES = ["Limiting retries for the idempotent producer may invalidate EoS guarantees"];

function kafkaLogCreator(logger: Logger) {
  return () =>
    ({ level, log }: LogEntry) => {
      const { message, ...extra } = log;
      const pinoLevel = STARTUP_NOTICES.includes(message) ? "debug" : (KAFKA_TO_PINO[level] ?? "info");
      logger[pinoLevel]({ kafka: extra }, message);
    };
}

/** The bus over Kafka: an idempotent producer (acks=all) and one kafkajs consumer per subscription group. */
export function createKafkaBus(opts: KafkaBusOptions): Bus {
  const kafka =
    opts.kafka ??
    new Kafka({
      clientId: opts.clientId,
      brokers: opts.brokers,
      logLevel: logLevel.WARN,
      logCreator: kafkaLogCreator(opts.logger.child({ component: "kafka" })),
      retry: { retries: 8, initialRetryTime: 200 },
    });
  const admin = kafka.admin();
  const sessionTimeoutMs = opts.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS;
  const producer: Producer = kafka.producer({
    // kafkajs 2's default, named so that it does not warn at every start that its default changed in 2.0.
    createPartitioner: Partitioners.DefaultPartitioner,
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
  });
  const subscriptions: RunningSubscription[] = [];
  let stopping = false;
  const handling = new Set<Promise<void>>();
  const subscribed = new Map<string, readonly string[]>();
  const lag = createKafkaLagReader({
    admin,
    logger: opts.logger,
    groups: () => subscribed,
    intervalMs: opts.lagIntervalMs,
  });

  /**
   * Only the topics the broker lacks: asked to create one that exists, the broker answers with an error code that
   * kafkajs logs at error level before it ignores it, once per topic at every start of every process.
   */
  const createTopics = async () => {
    const existing = new Set(await admin.listTopics());
    const missing = opts.topics.filter((topic) => !existing.has(topic));
    if (missing.length === 0) return;
    await admin.createTopics({
      waitForLeaders: true,
      topics: missing.map((topic) => ({
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

  const subscriptionSettings: SubscriptionSettings = {
    kafka,
    logger: opts.logger,
    poison: opts.poison,
    partitions: opts.partitions,
    sessionTimeoutMs,
    heartbeatIntervalMs: heartbeatIntervalFor(sessionTimeoutMs),
    fetchWaitMs: fetchWaitFor(sessionTimeoutMs),
    restartDelayMs: opts.consumerRestartDelayMs,
    send,
    handling,
    isStopping: () => stopping,
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
      subscriptions.push(await startSubscription(subscriptionSettings, subscription));
      subscribed.set(subscription.group, subscription.topics);
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
      await Promise.allSettled(subscriptions.map((subscription) => subscription.close()));
      await producer.disconnect().catch(() => undefined);
      await admin.disconnect().catch(() => undefined);
    },
  };
}
