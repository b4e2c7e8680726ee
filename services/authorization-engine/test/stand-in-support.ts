/** The captures the stand-in suites make (program rules and webhook rules), against one engine harness. */
import { expect } from "vitest";
import { eventually } from "../../../test/support/eventually";
import {
  answerDecision,
  call,
  eventsOf,
  nextEvent,
  type Business,
  type EngineHarness,
  type IssuedCard,
  type Reply,
} from "./harness";

/** `harness`: the suite's engine, started in its beforeAll. */
export function standInCaptures(harness: () => EngineHarness) {
  /** Decision events already handed to a test: each is answered once. */
  const seen = new Set<string>();
  const capturePath = (card: IssuedCard) => `/simulation/cards/${card.cardId}/request-authorization/capture`;

  /** A capture whose decision event the receiver answers with `answer` (an unusable one: stand-in decides). */
  async function answered(
    as: Business,
    card: IssuedCard,
    request: Record<string, unknown>,
    answer: Parameters<typeof answerDecision>[3],
  ): Promise<Reply> {
    const h = harness();
    const reply = call(h, as, "POST", capturePath(card), request);
    const asked = await nextEvent(
      h,
      seen,
      (e) => e.event === "card.authorization.request" && (e.data as { card?: string }).card === card.cardId,
    );
    await answerDecision(h, as, asked, answer);
    return reply;
  }

  /** A capture that reached the engine too late to ask the receiver: decided at once (platform-overloaded). */
  const overdue = (as: Business, card: IssuedCard, request: Record<string, unknown>) =>
    call(harness(), as, "POST", capturePath(card), request, { "x-received-at": String(Date.now() - 3_900) });

  const closedEventOf = (id: string) =>
    eventually(() => {
      const closed = eventsOf(harness(), id).find((e) => e.event === "card.authorization.closed");
      expect(closed).toBeDefined();
      return closed!;
    }, 5_000);

  return { seen, capturePath, answered, overdue, closedEventOf };
}
