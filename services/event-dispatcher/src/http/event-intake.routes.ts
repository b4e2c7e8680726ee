import type { Express } from "express";
import { z } from "zod";
import { eventPublishedMessage, EVENTS_INTAKE_PATH, postedEventsBody } from "@cardhold/contracts";
import { AppError, validate } from "@cardhold/platform";
import type { EventIntake } from "../messaging/consumers";

const publishedValues = z.array(eventPublishedMessage);

/**
 * events.v1 messages posted by an engine's outbox relay (its direct lane), internal only: like every route of a
 * service it needs the internal credential, and the gateway routes no public path here. Answers 200 once they are
 * stored, as the bus consumer would have stored them; 503 before this dispatcher has started. Any other answer makes
 * the relay send them on events.v1 instead, where a repeat changes nothing.
 */
export function eventIntakeRoutes(app: Express, intake: EventIntake, started: () => boolean) {
  app.post(EVENTS_INTAKE_PATH, async (req, res) => {
    if (!started()) throw new AppError(503, "service-unavailable", "The event dispatcher is starting");
    const messages = validate(postedEventsBody, req.body, "posted events");
    const values = validate(
      publishedValues,
      messages.map((m) => m.value),
      "posted events' values",
    );
    await intake(messages, values);
    res.json({ stored: messages.length });
  });
}
