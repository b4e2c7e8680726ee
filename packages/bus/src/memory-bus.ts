import type { Logger } from "pino";
import { newMessageId } from "./message-id";
import type { Bus, IncomingMessage, OutgoingMessage, Subscription } from "./bus";
import { partitionFor } from "./partition";

const PARTITIONS = 8;
const MAX_RETRY_DELAY_MS = 5_000;

interface PartitionCursor {
  offset: number;
  running: boolean;
  retryDelayMs: number;
}

interface Group {
  subscription: Subscription;
  cursors: Map<string, PartitionCursor>;
}

export interface MemoryBus extends Bus {
  /** Resolves when every group has handled every message published so far (for tests). */
  drained(timeoutMs?: number): Promise<void>;
}

/**
 * An in-process bus with Kafka's guarantees that matter here: per-key order (keys hash to partitions, each
 * partition is handled in sequence), consumer groups, and at-least-once with retry. Messages live as long as the
 * process; a new group starts from the first message.
 */
export function createMemoryBus(logger?: Logger): MemoryBus {
  const log = new Map<string, IncomingMessage[][]>();
  const groups = new Map<string, Group>();
  const inFlight = new Set<Promise<void>>();
  let stopped = false;

  const partitionsOf = (topic: string) => {
    let partitions = log.get(topic);
    if (!partitions) {
      partitions = Array.from({ length: PARTITIONS }, () => []);
      log.set(topic, partitions);
    }
    return partitions;
  };

  const pump = (group: Group, topic: string, partition: number) => {
    const cursorKey = `${topic}:${partition}`;
    let cursor = group.cursors.get(cursorKey);
    if (!cursor) {
      cursor = { offset: 0, running: false, retryDelayMs: 50 };
      group.cursors.set(cursorKey, cursor);
    }
    if (cursor.running || stopped) return;
    cursor.running = true;
    const work = drain(group, topic, partition, cursor).finally(() => {
      inFlight.delete(work);
    });
    inFlight.add(work);
  };

  const drain = async (group: Group, topic: string, partition: number, cursor: PartitionCursor) => {
    const messages = partitionsOf(topic)[partition]!;
    while (!stopped && cursor.offset < messages.length) {
      const message = messages[cursor.offset]!;
      try {
        await group.subscription.handler(message);
        cursor.offset += 1;
        cursor.retryDelayMs = 50;
      } catch (err) {
        logger?.warn({ err, topic, group: group.subscription.group, messageId: message.id }, "handler failed; retrying");
        const delay = cursor.retryDelayMs;
        cursor.retryDelayMs = Math.min(delay * 2, MAX_RETRY_DELAY_MS);
        cursor.running = false;
        setTimeout(() => pump(group, topic, partition), delay).unref();
        return;
      }
    }
    cursor.running = false;
  };

  const pumpAll = (topic: string, partition: number) => {
    for (const group of groups.values()) {
      if (group.subscription.topics.includes(topic)) pump(group, topic, partition);
    }
  };

  return {
    async start() {
      stopped = false;
    },
    async publish(messages: OutgoingMessage[]) {
      if (stopped) throw new Error("bus is stopped");
      const touched = new Set<string>();
      for (const m of messages) {
        const partitions = partitionsOf(m.topic);
        const partition = partitionFor(m.key, PARTITIONS);
        const stored: IncomingMessage = {
          id: m.id ?? newMessageId(),
          topic: m.topic,
          key: m.key,
          value: structuredClone(m.value),
          headers: { ...m.headers },
          partition,
          offset: String(partitions[partition]!.length),
        };
        partitions[partition]!.push(stored);
        touched.add(`${m.topic}\u0000${partition}`);
      }
      for (const entry of touched) {
        const [topic, partition] = entry.split("\u0000") as [string, string];
        pumpAll(topic, Number(partition));
      }
    },
    async subscribe(subscription: Subscription) {
      if (groups.has(subscription.group)) throw new Error(`group ${subscription.group} already subscribed`);
      const group: Group = { subscription, cursors: new Map() };
      groups.set(subscription.group, group);
      for (const topic of subscription.topics) {
        for (let p = 0; p < PARTITIONS; p++) pump(group, topic, p);
      }
    },
    async ready() {
      return !stopped;
    },
    async stop() {
      stopped = true;
      await Promise.allSettled([...inFlight]);
    },
    async drained(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const behind = [...groups.values()].some((g) =>
          g.subscription.topics.some((topic) =>
            partitionsOf(topic).some((messages, p) => (g.cursors.get(`${topic}:${p}`)?.offset ?? 0) < messages.length),
          ),
        );
        if (!behind && inFlight.size === 0) return;
        if (Date.now() > deadline) throw new Error("memory bus not drained in time");
        await new Promise((r) => setTimeout(r, 10));
      }
    },
  };
}
