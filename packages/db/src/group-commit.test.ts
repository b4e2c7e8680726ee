import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createGroupCommit, type GroupCommitOptions } from "./group-commit";

/** A writer that records each group and finishes it only when told to. */
function recordingWriter() {
  const groups: string[][] = [];
  const finish: (() => void)[] = [];
  const writeAll = (items: string[]) => {
    groups.push(items);
    return new Promise<void>((resolve) => finish.push(resolve));
  };
  return { groups, writeAll, finishNext: () => finish.shift()?.() };
}

const settle = () => vi.advanceTimersByTimeAsync(0);

describe("group commit", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const start = (opts: GroupCommitOptions<string> = {}) => {
    const writer = recordingWriter();
    return { ...writer, group: createGroupCommit<string>(writer.writeAll, opts) };
  };

  it("writes a lone item at once and gathers what comes while a write is under way", async () => {
    const { groups, group, finishNext } = start();
    const first = group.write("a");
    await settle();
    expect(groups).toEqual([["a"]]);
    const rest = [group.write("b"), group.write("c")];
    await settle();
    expect(groups).toEqual([["a"]]);
    finishNext();
    await first;
    await settle();
    expect(groups).toEqual([["a"], ["b", "c"]]);
    finishNext();
    await Promise.all(rest);
  });

  it("with a linger, waits that long for others before writing", async () => {
    const { groups, group, finishNext } = start({ lingerMs: 10 });
    const written = [group.write("a")];
    await vi.advanceTimersByTimeAsync(9);
    written.push(group.write("b"));
    await settle();
    expect(groups).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(groups).toEqual([["a", "b"]]);
    finishNext();
    await Promise.all(written);
  });

  it("a full group ends the linger, and groups never exceed maxItems counted by sizeOf", async () => {
    const { groups, group, finishNext } = start({ lingerMs: 10, maxItems: 4, sizeOf: (item) => item.length });
    const written = [group.write("aa"), group.write("bb")];
    await settle();
    expect(groups).toEqual([["aa", "bb"]]);
    written.push(group.write("ccc"), group.write("dd"), group.write("eeeee"));
    finishNext();
    await settle();
    finishNext();
    await settle();
    finishNext();
    await settle();
    // Each group stays within 4; an item larger than that goes alone.
    expect(groups).toEqual([["aa", "bb"], ["ccc"], ["dd"], ["eeeee"]]);
    finishNext();
    await Promise.all(written);
  });

  it("when a group fails, each of its items is written alone so only the bad one fails", async () => {
    const failed: number[] = [];
    const writeAll = async (items: string[]) => {
      if (items.includes("bad")) throw new Error("bad item");
    };
    const group = createGroupCommit<string>(writeAll, { lingerMs: 5, onGroupFailed: (_, n) => failed.push(n) });
    const good = group.write("good");
    const bad = group.write("bad");
    const outcome = Promise.allSettled([good, bad]);
    await vi.advanceTimersByTimeAsync(5);
    expect((await outcome).map((r) => r.status)).toEqual(["fulfilled", "rejected"]);
    expect(failed).toEqual([2]);
  });
});
