import type { Logger } from "pino";
import { newMessageId } from "./message-id";
import { MAX_BATCH, type Bus, type IncomingMessage, type OutgoingMessage, type Subscription } from "./bus";
import { partitionFor } from "./partition";

const PARTITIONS = 8;
const MAX_RETRY_DELAY_MS = 5_000;

interface StoredMessage extends IncomingMessage {
  /** Groups that have yet to handle this message; the publisher waits for them. */
  awaiting: Set<string>;
  handled: () => void;
}

interface PartitionCursor {
  offset: number;
  running: boolean;
  retryDelayMs: number;
}

interface Group {
  subscription: Subscription;
  cursors: Map<string, PartitionCursor>;
}

export interface MemoryBusOptions {
  logger?: Logger;
  /**
   * How long publish() waits for every subscribed group to handle the message. Waiting makes the outbox the
   * safety net in the all-in-one mode: a row is marked published only once consumers have committed its effects,
   * so a crash loses nothing. After this time publish() resolves anyway and the message stays queued.
   */
  handledWaitMs?: number;
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
export function createMemoryBus(opts: MemoryBusOptions = {}): MemoryBus {
  const { logger, handledWaitMs = 10_000 } = opts;
  const log = new Map<string, StoredMessage[][]>();
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
      const { subscription } = group;
      const batch = messages.slice(cursor.offset, cursor.offset + (subscription.batchHandler ? MAX_BATCH : 1));
      try {
        const delivered = batch.map(({ awaiting: _awaiting, handled: _handled, ...m }) => m);
        if (subscription.batchHandler) await subscription.batchHandler(delivered);
        else await subscription.handler(delivered[0]!);
        cursor.offset += batch.length;
        for (const message of batch) {
          message.awaiting.delete(subscription.group);
          if (message.awaiting.size === 0) message.handled();
        }
        cursor.retryDelayMs = 50;
      } catch (err) {
        logger?.warn({ err, topic, group: subscription.group, messageId: batch[0]!.id }, "handler failed; retrying");
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
      const handled: Promise<void>[] = [];
      for (const m of messages) {
        const partitions = partitionsOf(m.topic);
        const partition = partitionFor(m.key, PARTITIONS);
        const awaiting = new Set([...groups.values()].filter((g) => g.subscription.topics.includes(m.topic)).map((g) => g.subscription.group));
        let markHandled = () => undefined as void;
        handled.push(new Promise<void>((resolve) => (markHandled = resolve)));
        if (awaiting.size === 0) markHandled();
        const stored: StoredMessage = {
          awaiting,
          handled: () => markHandled(),
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
      await waitAtMost(Promise.all(handled), handledWaitMs);
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

function waitAtMost(work: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    void work.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
