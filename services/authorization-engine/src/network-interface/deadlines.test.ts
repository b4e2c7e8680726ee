import { describe, expect, it } from "vitest";
import { DECISION_WINDOW_MS } from "../domain/authorization";
import { deadlinesFor } from "./deadlines";

describe("deadlines inside the network's timeout", () => {
  it.each([
    // timeout, answer by (after receipt), the engine's decision window ends (after receipt)
    [4_000, 3_750, 3_450],
    [2_000, 1_750, 1_450],
    [1_000, 750, 450],
    // A long timeout: the engine's window stays its 4 s, from receipt.
    [10_000, 9_750, DECISION_WINDOW_MS],
  ])("a %i ms timeout: answer by +%i, the window ends at +%i", (timeoutMs, answerBy, windowEnd) => {
    const receivedAt = 1_000_000;
    const d = deadlinesFor(receivedAt, timeoutMs);
    expect(d.answerBy - receivedAt).toBe(answerBy);
    expect(d.engineArrivedAt + DECISION_WINDOW_MS - receivedAt).toBe(windowEnd);
    expect(d.engineArrivedAt).toBeLessThanOrEqual(receivedAt);
  });
});
