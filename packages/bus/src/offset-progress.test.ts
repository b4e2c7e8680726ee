import pino from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createOffsetProgress, OFFSET_COMMIT_INTERVAL_MS } from "./offset-progress";

const logger = pino({ level: "silent" });

function fakeConsumer(fails = false) {
  const commits: Array<Array<{ topic: string; partition: number; offset: string }>> = [];
  return {
    commits,
    commitOffsets: vi.fn(async (offsets: Array<{ topic: string; partition: number; offset: string }>) => {
      commits.push(offsets);
      if (fails) throw new Error("rebalancing");
    }),
  };
}

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe("offsets handled and not yet committed", () => {
  it("keeps no timer while nothing waits to be committed", async () => {
    createOffsetProgress(fakeConsumer(), logger);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("commits the next offset of each partition once, within the interval of the first message handled", async () => {
    const consumer = fakeConsumer();
    const progress = createOffsetProgress(consumer, logger);
    progress.handled("events.v1", 0, "41");
    await vi.advanceTimersByTimeAsync(OFFSET_COMMIT_INTERVAL_MS - 100);
    progress.handled("events.v1", 0, "44");
    progress.handled("events.v1", 2, "9");
    expect(consumer.commits).toEqual([]);
    await vi.advanceTimersByTimeAsync(100);
    expect(consumer.commits).toEqual([
      [
        { topic: "events.v1", partition: 0, offset: "45" },
        { topic: "events.v1", partition: 2, offset: "10" },
      ],
    ]);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(5 * OFFSET_COMMIT_INTERVAL_MS);
    expect(consumer.commits).toHaveLength(1);
  });

  it("starts a new interval with the next message after a commit", async () => {
    const consumer = fakeConsumer();
    const progress = createOffsetProgress(consumer, logger);
    progress.handled("decisions.v1", 1, "7");
    await vi.advanceTimersByTimeAsync(OFFSET_COMMIT_INTERVAL_MS);
    progress.handled("decisions.v1", 1, "8");
    await vi.advanceTimersByTimeAsync(OFFSET_COMMIT_INTERVAL_MS);
    expect(consumer.commits.map((c) => c[0]!.offset)).toEqual(["8", "9"]);
  });

  it("commits what is left at once on close, and nothing when nothing is left", async () => {
    const consumer = fakeConsumer();
    const progress = createOffsetProgress(consumer, logger);
    progress.handled("events.v1", 0, "3");
    await progress.close();
    expect(consumer.commits).toEqual([[{ topic: "events.v1", partition: 0, offset: "4" }]]);
    expect(vi.getTimerCount()).toBe(0);
    await progress.close();
    expect(consumer.commits).toHaveLength(1);
  });

  it("forgets what was not committed when dropped", async () => {
    const consumer = fakeConsumer();
    const progress = createOffsetProgress(consumer, logger);
    progress.handled("events.v1", 0, "3");
    progress.drop();
    await vi.advanceTimersByTimeAsync(2 * OFFSET_COMMIT_INTERVAL_MS);
    await progress.close();
    expect(consumer.commits).toEqual([]);
  });

  it("takes a failed commit as messages that may be consumed again, and goes on", async () => {
    const consumer = fakeConsumer(true);
    const progress = createOffsetProgress(consumer, logger);
    progress.handled("events.v1", 0, "3");
    await vi.advanceTimersByTimeAsync(OFFSET_COMMIT_INTERVAL_MS);
    progress.handled("events.v1", 0, "4");
    await vi.advanceTimersByTimeAsync(OFFSET_COMMIT_INTERVAL_MS);
    expect(consumer.commits.map((c) => c[0]!.offset)).toEqual(["4", "5"]);
  });
});
