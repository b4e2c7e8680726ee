import type { Logger } from "pino";
import type { Bus } from "@cardhold/bus";
import { decisionAnsweredMessage, TOPICS } from "@cardhold/contracts";
import type { AnswerIntake } from "../authorizations/answer-intake";

/**
 * decisions.v1 → the receiver's answers (or why none came) applied to the authorizations waiting for them: those the
 * dispatcher could not post straight back to the engine that asked (decision-answers.routes.ts), and every answer
 * where no engine gave an address.
 */
export function subscribeToDecisions(deps: { bus: Bus; logger: Logger; takeAnswer: AnswerIntake }) {
  return deps.bus.subscribe({
    group: "authorization-engine.decisions",
    topics: [TOPICS.decisions],
    handler: async (message) => {
      const parsed = decisionAnsweredMessage.safeParse(message.value);
      if (!parsed.success)
        return deps.logger.error({ messageId: message.id }, "skipping malformed decisions.v1 message");
      await deps.takeAnswer(parsed.data.data);
    },
  });
}
