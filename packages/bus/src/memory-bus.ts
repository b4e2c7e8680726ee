import type { Logger } from "pino";
import { newMessageId } from "./message-id";
import { MAX_BATCH, type Bus, type IncomingMessage, type OutgoingMessage, type Subscription } from "./bus";
import { partitionFor } from "./partition";
import { guardedHandling, type PoisonPolicy } from "./poison";
import { handleInSpan, startPublishSpans } from "./trace-context";

const PARTITIONS = 8;
const MAX_RETRY_DELAY_MS = 5_000;
/** Handled messages are dropped this many at a time, so trimming costs nothing per message. */
const TRIM_CHUNK = 64;

interface StoredMessage extends IncomingMessage {
  /** Groups that have yet to handle this message; the publisher waits for them. */
  awaiting: Set<string>;
  handled: () => void;
}

/**
 * One partition's log: `messages[i]` has offset `first + i`; what precedes `first` was handled and dropped. Slots
 * before `kept` (an offset) hold messages every group has handled: emptied at once, so a handled message dies young
 * whatever the rate, and cut from the array `TRIM_CHUNK` at a time.
 */
interface PartitionLog {
  first: number;
  kept: number;
  messages: Array<StoredMessage | undefined>;
}

const endOf = (log: PartitionLog) => log.first + log.messages.length;

interface PartitionCursor {
  offset: number;
  running: boolean;
  retryDelayMs: number;
}

interface Group {
  subscription: Subscription;
  cursors: Map<string, PartitionCursor>;
  /** The subscription's handler behind the poison-message guard (poison.ts). */
  handle: (messages: IncomingMessage[]) => Promise<void>;
}

export interface MemoryBusOptions {
  logger?: Logger;
  /**
   * How long publish() waits for every subscribed group to handle the message. Waiting makes the outbox the
   * safety net in the all-in-one mode: a row is marked published only once consumers have committed its effects,
   * so a crash loses nothing. After this time publish() resolves anyway and the message stays queued.
   */
  handledWaitMs?: number;
  /** When a message its handler keeps failing on is set aside (poison.ts; default 5 attempts over 60 s). */
  poison?: PoisonPolicy;
}

export interface MemoryBus extends Bus {
  /** Resolves when every group has handled every message published so far (for tests). */
  drained(timeoutMs?: number): Promise<void>;
}

/**
 * An in-process bus with Kafka's guarantees that matter here: per-key order (keys hash to partitions, each
 * partition is handled in sequence), consumer groups, and at-least-once with retry.
 *
 * Until start() the bus keeps every message, so a group that subscribes before it sees all that was published
 * before it (the all-in-one starts its services, whose relays may publish a crashed run's outbox, then the bus).
 * From start() on, a message is dropped once every subscribed group has handled it; a group subscribing later
 * starts from the oldest message kept. Keeping handled messages for such latecomers (it kept the last 1,000 of each
 * partition) held every message for seconds at 250 authorizations/s: they outlived the young generation, filled the
 * old one, and its collections raised the all-in-one's p99 from ~30 to ~50 ms (bench/README.md, ninth session).
 */
export function createMemoryBus(opts: MemoryBusOptions = {}): MemoryBus {
  const { logger, handledWaitMs = 10_000, poison } = opts;
  const log = new Map<string, PartitionLog[]>();
  const groups = new Map<string, Group>();
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  /** Handled messages are dropped only once start() says every group that consumes has subscribed. */
  let dropping = false;

  const partitionsOf = (topic: string) => {
    let partitions = log.get(topic);
    if (!partitions) {
      partitions = Array.from({ length: PARTITIONS }, () => ({ first: 0, kept: 0, messages: [] }));
      log.set(topic, partitions);
    }
    return partitions;
  };

  const pump = (group: Group, topic: string, partition: number) => {
    const cursorKey = `${topic}:${partition}`;
    let cursor = group.cursors.get(cursorKey);
    if (!cursor) {
      cursor = { offset: partitionsOf(topic)[partition]!.kept, running: false, retryDelayMs: 50 };
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
    const partitionLog = partitionsOf(topic)[partition]!;
    while (!stopped && cursor.offset < endOf(partitionLog)) {
      const { subscription } = group;
      const from = cursor.offset - partitionLog.first;
      // Every message from a group's cursor on is still kept (`kept` never passes the lowest cursor).
      const batch = partitionLog.messages.slice(
        from,
        from + (subscription.batchHandler ? MAX_BATCH : 1),
      ) as StoredMessage[];
      try {
        const delivered = batch.map(({ awaiting: _awaiting, handled: _handled, ...m }) => m);
        await group.handle(delivered);
        cursor.offset += batch.length;
        for (const message of batch) {
          message.awaiting.delete(subscription.group);
          if (message.awaiting.size === 0) message.handled();
        }
        cursor.retryDelayMs = 50;
        dropHandled(topic, partition);
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

  /**
   * Releases the oldest messages once every group subscribed to the topic is past them. Held until 64 of its
   * partition were handled, a message waited seconds at a few dozen authorizations a second (8 partitions), outlived
   * V8's young generation and brought old-generation collections (bench/README.md, twenty-sixth session).
   */
  const dropHandled = (topic: string, partition: number) => {
    if (!dropping) return;
    const partitionLog = partitionsOf(topic)[partition]!;
    let lowest = endOf(partitionLog);
    for (const group of groups.values()) {
      if (!group.subscription.topics.includes(topic)) continue;
      lowest = Math.min(lowest, group.cursors.get(`${topic}:${partition}`)?.offset ?? partitionLog.kept);
    }
    for (let offset = partitionLog.kept; offset < lowest; offset++) {
      partitionLog.messages[offset - partitionLog.first] = undefined;
    }
    partitionLog.kept = Math.max(partitionLog.kept, lowest);
    const droppable = partitionLog.kept - partitionLog.first;
    if (droppable < TRIM_CHUNK) return;
    partitionLog.messages.splice(0, droppable);
    partitionLog.first = partitionLog.kept;
  };

  const pumpAll = (topic: string, partition: number) => {
    for (const group of groups.values()) {
      if (group.subscription.topics.includes(topic)) pump(group, topic, partition);
    }
  };

  const bus: MemoryBus = {
    crossProcess: false,
    async start() {
      stopped = false;
      dropping = true;
    },
    async publish(outgoing: OutgoingMessage[]) {
      if (stopped) throw new Error("bus is stopped");
      // Published once stored here: the send spans end at once, not when the consumers are done.
      const spans = startPublishSpans(outgoing);
      const messages = spans.messages;
      spans.end();
      const touched = new Set<string>();
      const handled: Promise<void>[] = [];
      for (const m of messages) {
        const partition = partitionFor(m.key, PARTITIONS);
        const partitionLog = partitionsOf(m.topic)[partition]!;
        const awaiting = new Set(
          [...groups.values()].filter((g) => g.subscription.topics.includes(m.topic)).map((g) => g.subscription.group),
        );
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
          offset: String(endOf(partitionLog)),
        };
        partitionLog.messages.push(stored);
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
      const { batchHandler, handler } = subscription;
      const handle = guardedHandling({
        group: subscription.group,
        policy: poison,
        run: (messages) =>
          handleInSpan(subscription.group, messages, () =>
            batchHandler ? batchHandler(messages) : handler!(messages[0]!),
          ),
        setAside: (deadLetter) => bus.publish([deadLetter]),
        onSetAside: (message, err) =>
          logger?.error(
            { err, group: subscription.group, topic: message.topic, messageId: message.id },
            "message set aside on dead-letters.v1: its handler cannot take it",
          ),
      });
      const group: Group = { subscription, cursors: new Map(), handle };
      groups.set(subscription.group, group);
      for (const topic of subscription.topics) {
        for (let p = 0; p < PARTITIONS; p++) pump(group, topic, p);
      }
    },
    async ready() {
      return !stopped;
    },
    consumerLag() {
      const lags = [...groups.values()].flatMap(({ subscription, cursors }) =>
        subscription.topics.map((topic) => ({
          group: subscription.group,
          topic,
          messages: partitionsOf(topic).reduce(
            (n, partitionLog, p) =>
              n + endOf(partitionLog) - (cursors.get(`${topic}:${p}`)?.offset ?? partitionLog.kept),
            0,
          ),
        })),
      );
      return { lags, readAt: Date.now() };
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
            partitionsOf(topic).some(
              (partitionLog, p) => (g.cursors.get(`${topic}:${p}`)?.offset ?? partitionLog.kept) < endOf(partitionLog),
            ),
          ),
        );
        if (!behind && inFlight.size === 0) return;
        if (Date.now() > deadline) throw new Error("memory bus not drained in time");
        await new Promise((r) => setTimeout(r, 10));
      }
    },
  };
  return bus;
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
