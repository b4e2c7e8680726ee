import type { Admin } from "kafkajs";
import type { Logger } from "pino";

/** Messages on a topic that a consumer group has not handled yet (summed over the topic's partitions). */
export interface ConsumerLag {
  group: string;
  topic: string;
  messages: number;
}

export interface ConsumerLagReading {
  lags: ConsumerLag[];
  /** When the lags were read (ms since the epoch); undefined until the first reading succeeds. */
  readAt: number | undefined;
}

/** What the lag reader asks of a kafkajs admin client (a fake in tests). */
export type LagAdmin = Pick<Admin, "fetchTopicOffsets" | "fetchOffsets">;

export interface KafkaLagReaderOptions {
  admin: LagAdmin;
  logger: Logger;
  /** The groups to read, with their topics (those subscribed through this bus). */
  groups: () => ReadonlyMap<string, readonly string[]>;
  intervalMs?: number;
}

export interface KafkaLagReader {
  start(): void;
  /** The last successful reading: a failed one (broker away) keeps the previous. */
  latest(): ConsumerLagReading;
  /** Reads now (the timer's job; tests call it). */
  read(): Promise<void>;
  /** Stops the timer; a reading under way is not waited for (with the broker away it could hold up a shutdown). */
  stop(): void;
}

/** Every 5 s: two admin requests per topic and group, cheap for the broker, and well inside a scrape interval. */
const DEFAULT_INTERVAL_MS = 5_000;

/**
 * Consumer lag read periodically through the bus's one admin client, never on a scrape: the latest offset of each
 * partition minus the group's committed offset (a partition with nothing committed counts from its earliest offset,
 * as the consumers start from the beginning). Offsets are committed every half second (kafka-bus.ts), so a lag of a
 * few hundred messages under load is what the commit interval leaves, not a backlog.
 */
export function createKafkaLagReader(opts: KafkaLagReaderOptions): KafkaLagReader {
  const intervalMs = opts.intervalMs ?? DEFAULT_INTERVAL_MS;
  let last: ConsumerLagReading = { lags: [], readAt: undefined };
  let timer: NodeJS.Timeout | undefined;
  let reading: Promise<void> | undefined;

  const readAll = async () => {
    const groups = opts.groups();
    const topics = new Set([...groups.values()].flat());
    const ends = new Map<string, Map<number, { high: bigint; low: bigint }>>();
    for (const topic of topics) {
      const partitions = await opts.admin.fetchTopicOffsets(topic);
      ends.set(topic, new Map(partitions.map((p) => [p.partition, { high: BigInt(p.high), low: BigInt(p.low) }])));
    }
    const lags: ConsumerLag[] = [];
    for (const [group, groupTopics] of groups) {
      for (const { topic, partitions } of await opts.admin.fetchOffsets({ groupId: group, topics: [...groupTopics] })) {
        let behind = 0n;
        for (const { partition, offset } of partitions) {
          const end = ends.get(topic)?.get(partition);
          if (!end) continue;
          const committed = BigInt(offset);
          const from = committed < 0n ? end.low : committed;
          if (end.high > from) behind += end.high - from;
        }
        lags.push({ group, topic, messages: Number(behind) });
      }
    }
    last = { lags, readAt: Date.now() };
  };

  const read = () => {
    // A reading still under way (a broker slow to answer) is not doubled by the next tick.
    reading ??= readAll()
      .catch((err: unknown) => opts.logger.debug({ err }, "reading consumer lag failed; the last reading stands"))
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };

  return {
    start() {
      timer ??= setInterval(() => void read(), intervalMs);
      timer.unref();
      void read();
    },
    latest: () => last,
    read,
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
