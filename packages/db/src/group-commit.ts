/**
 * Group commit: calls that come while a write is under way wait and go out together in the next one, so under load
 * many callers cost one statement and one commit, and a lone caller is written at once (no timer, no added latency
 * when idle). When a group's write fails, each item of it is written alone, so one bad item fails only its caller.
 *
 * With `lingerMs`, a caller that finds nothing under way waits up to that long for others to join it (a steady
 * trickle then costs one write per window, not one per caller); a full group ends the wait. Only for callers that
 * nothing waits on: whatever awaits `write` waits the linger too.
 */
export interface GroupCommit<T> {
  /** Resolves once `item` is written (together with whatever was written with it). */
  write(item: T): Promise<void>;
}

export interface GroupCommitOptions<T> {
  /** At most this much in one write (default 200), counted by `sizeOf`. */
  maxItems?: number;
  /** How much an item counts against `maxItems` (default 1); a group always takes at least one item. */
  sizeOf?: (item: T) => number;
  /** How long an idle group waits for more before it writes (default 0: at once). */
  lingerMs?: number;
  /** Told when a group's write failed and its items are written one by one. */
  onGroupFailed?: (err: unknown, items: number) => void;
}

export function createGroupCommit<T>(
  writeAll: (items: T[]) => Promise<void>,
  opts: GroupCommitOptions<T> = {},
): GroupCommit<T> {
  const maxItems = opts.maxItems ?? 200;
  const sizeOf = opts.sizeOf ?? (() => 1);
  const lingerMs = opts.lingerMs ?? 0;
  type Waiting = { item: T; resolve: () => void; reject: (err: unknown) => void };
  let waiting: Waiting[] = [];
  let waitingSize = 0;
  let writing = false;
  let linger: NodeJS.Timeout | undefined;

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

  const nextGroup = () => {
    let size = 0;
    let n = 0;
    while (n < waiting.length && (n === 0 || size + sizeOf(waiting[n]!.item) <= maxItems))
      size += sizeOf(waiting[n++]!.item);
    const group = waiting.slice(0, n);
    waiting = waiting.slice(n);
    waitingSize -= size;
    return group;
  };

  const drain = async () => {
    clearTimeout(linger);
    linger = undefined;
    writing = true;
    while (waiting.length > 0) await writeGroup(nextGroup());
    writing = false;
  };

  return {
    write(item) {
      return new Promise<void>((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        waitingSize += sizeOf(item);
        if (writing) return;
        if (lingerMs <= 0 || waitingSize >= maxItems) void drain();
        else linger ??= setTimeout(() => void drain(), lingerMs);
      });
    },
  };
}
