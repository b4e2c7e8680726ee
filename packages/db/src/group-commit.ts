/**
 * Group commit: calls that come while a write is under way wait and go out together in the next one, so under load
 * many callers cost one statement and one commit, and a lone caller is written at once (no timer, no added latency
 * when idle). When a group's write fails, each item of it is written alone, so one bad item fails only its caller.
 */
export interface GroupCommit<T> {
  /** Resolves once `item` is written (together with whatever was written with it). */
  write(item: T): Promise<void>;
}

export interface GroupCommitOptions {
  /** At most this many items in one write (default 200). */
  maxItems?: number;
  /** Told when a group's write failed and its items are written one by one. */
  onGroupFailed?: (err: unknown, items: number) => void;
}

export function createGroupCommit<T>(writeAll: (items: T[]) => Promise<void>, opts: GroupCommitOptions = {}): GroupCommit<T> {
  const maxItems = opts.maxItems ?? 200;
  type Waiting = { item: T; resolve: () => void; reject: (err: unknown) => void };
  let waiting: Waiting[] = [];
  let writing = false;

  const writeGroup = async (group: Waiting[]) => {
    try {
      await writeAll(group.map((w) => w.item));
      for (const w of group) w.resolve();
    } catch (err) {
      if (group.length === 1) return group[0]!.reject(err);
      opts.onGroupFailed?.(err, group.length);
      for (const w of group) await writeAll([w.item]).then(w.resolve, w.reject);
    }
  };

  const drain = async () => {
    writing = true;
    while (waiting.length > 0) {
      const group = waiting.slice(0, maxItems);
      waiting = waiting.slice(group.length);
      await writeGroup(group);
    }
    writing = false;
  };

  return {
    write(item) {
      return new Promise<void>((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        if (!writing) void drain();
      });
    },
  };
}
