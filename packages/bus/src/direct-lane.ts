import type { OutboxRow } from "./outbox";

/**
 * The header outboxInsert puts on the first message of a key that has no earlier message at all (OutgoingMessage's
 * opensKey): the relay may post it by the direct lane whatever it knows of the key.
 */
export const OPENS_KEY_HEADER = "opens-key";

/**
 * A way to one consumer that skips the broker: the relay posts rows of `topic` to it and, when it answers true, they
 * are stored where the consumer would have stored them from the bus. False (or a throw): nothing is promised, the
 * rows go on the bus (a row the consumer took all the same is a repeat it ignores).
 */
export interface DirectLane {
  topic: string;
  post(rows: OutboxRow[]): Promise<boolean>;
}

/** Most rows in one post, and most bytes of their values: the rest of a batch goes on the bus. */
export const MAX_LANE_ROWS = 100;
export const MAX_LANE_BYTES = 256 * 1024;

/** Keys whose every message so far went by the lane and was taken: their next message may take it too. */
export interface LaneKeys {
  has(key: string): boolean;
  add(key: string): void;
  delete(key: string): void;
  clear(): void;
}

/**
 * A bounded set, oldest first out: a key forgotten only sends its later messages on the bus, which is always safe.
 * A resource's messages come seconds apart (an authorization's question and its closing); 100,000 keys is minutes of
 * peak load.
 */
export function createLaneKeys(capacity = 100_000): LaneKeys {
  const keys = new Set<string>();
  return {
    has: (key) => keys.has(key),
    add(key) {
      keys.delete(key);
      keys.add(key);
      if (keys.size > capacity) keys.delete(keys.values().next().value!);
    },
    delete: (key) => void keys.delete(key),
    clear: () => keys.clear(),
  };
}

export interface LaneSplit {
  /** Rows to post, in their order. */
  lane: OutboxRow[];
  /** Rows for the bus that share no key with `lane`: published while the post is under way. */
  bus: OutboxRow[];
  /** Rows for the bus behind a row of their key in `lane`: published only once the post has ended. */
  after: OutboxRow[];
}

/**
 * Which rows of a batch (in commit order) take the lane. A key's consumer must see its messages in order, and the two
 * ways do not keep order between them, so a row takes the lane only when every earlier message of its key did and was
 * taken: it opens its key (OPENS_KEY_HEADER), or its key is in `known`, or an earlier row of this batch took the lane.
 * Once a key's row goes on the bus, its later rows follow it there. Within the size limits.
 */
export function splitForLane(rows: OutboxRow[], topic: string, known: Pick<LaneKeys, "has">): LaneSplit {
  const split: LaneSplit = { lane: [], bus: [], after: [] };
  const laneKeys = new Set<string>();
  const busKeys = new Set<string>();
  let bytes = 0;
  for (const row of rows) {
    const size = row.value?.length ?? 0;
    const eligible =
      row.topic === topic &&
      !busKeys.has(row.key) &&
      (laneKeys.has(row.key) || known.has(row.key) || row.headers[OPENS_KEY_HEADER] !== undefined) &&
      split.lane.length < MAX_LANE_ROWS &&
      bytes + size <= MAX_LANE_BYTES;
    if (eligible) {
      split.lane.push(row);
      laneKeys.add(row.key);
      bytes += size;
    } else {
      (laneKeys.has(row.key) ? split.after : split.bus).push(row);
      if (row.topic === topic) busKeys.add(row.key);
    }
  }
  return split;
}
