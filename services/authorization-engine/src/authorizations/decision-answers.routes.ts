import type { Express } from "express";
import { DECISION_ANSWERS_PATH, decisionAnsweredMessage } from "@cardhold/contracts";
import { validate } from "@cardhold/platform";
import type { AnswerIntake } from "./answer-intake";

/**
 * The way back for answers, internal only: like every route of a service it needs the internal credential, and the
 * gateway routes no public path here. Answers 200 once the answer is committed, or found to change nothing
 * (`applied: false`: already decided, or an answer to an earlier question); the dispatcher publishes the answer on
 * decisions.v1 instead when this fails.
 */
export function decisionAnswerRoutes(app: Express, takeAnswer: AnswerIntake) {
  app.post(DECISION_ANSWERS_PATH, async (req, res) => {
    const message = validate(decisionAnsweredMessage, req.body, "decision answer");
    res.json({ applied: await takeAnswer(message.data) });
  });
}
