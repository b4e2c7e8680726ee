import type { Logger } from "pino";
import type { Bus } from "@cardhold/bus";
import { subscribeToWebhookChanges, type SigningKeySealer } from "@cardhold/platform";
import { eventPublishedMessage, TOPICS, type EventPublishedMessage } from "@cardhold/contracts";
import { createGroupCommit, type Db } from "@cardhold/db";
import { enqueueDecision, type DeliveryWorker } from "../delivery/delivery.worker";
import { eventTraces } from "../delivery/event-traces";
import { deliveryPolicy } from "../domain/delivery-policy";
import { deliveredEnvelope } from "../domain/envelope";
import { routeEventTo } from "../domain/routing";
import { insertEventsWithDeliveries, type RoutedEvent, type StoredEvents } from "../store/events.store";
import type { RoutingTables } from "../store/routing-tables";
import { deleteWebhook, SCHEMA, upsertWebhook } from "../store/webhooks.store";

/**
 * webhooks.v1 → the routing table (a null value is a tombstone: the webhook was deleted). The key is stored sealed:
 * as the message carries it, or sealed here when a message from before sealing carries it in plain.
 */
export function subscribeToWebhooks(db: Db, bus: Bus, logger: Logger, keys: SigningKeySealer, routing: RoutingTables) {
  return subscribeToWebhookChanges(
    { db, bus, logger },
    {
      group: "event-dispatcher.webhooks",
      schema: SCHEMA,
      upsert: async (tx, change) => {
        const { id, sealedSigningKey, signingKey } = change.data;
        const sealed = sealedSigningKey ?? (signingKey === undefined ? undefined : keys.seal(id, signingKey));
        if (sealed === undefined)
          return logger.error({ webhookId: id }, "skipping webhooks.v1 message without a signing key");
        await upsertWebhook(tx, change, sealed);
      },
      remove: deleteWebhook,
      changed: routing.invalidate,
    },
  );
}

/** Events stored in one statement at most (whole batches: a larger batch than this is stored alone). */
const MAX_EVENTS_STORED_TOGETHER = 1_000;

/** An events.v1 message as consumed from the bus or posted by an engine's relay (EVENTS_INTAKE_PATH). */
export interface EventMessage {
  id: string;
  /** As the producer wrote it: its envelope is what gets signed, its fields and their order kept. */
  value: unknown;
  headers: Record<string, string>;
}

/**
 * Stores events and their deliveries. `validated`, when given, holds each message's value already checked (the
 * intake route refuses a malformed one); otherwise a malformed message is logged and skipped.
 */
export type EventIntake = (messages: EventMessage[], validated?: EventPublishedMessage[]) => Promise<void>;

/**
 * events.v1, from the bus or posted → the event log plus one delivery per webhook the routing table names now; the
 * delivery worker takes it from there (those it has room for are claimed as they are stored and handed to it at
 * once). Batches that arrive while one is being stored (the bus hands partitions over concurrently, and posts come in
 * beside them) are stored together in the next statement: one commit for many, and one claim on the worker's room at
 * a time, so two batches never claim the same room. No linger here: a batch's partition waits for its store, so a
 * decision behind a lingering notification would wait too (measured: the hop to the dispatcher's p99 at 50/s,
 * distributed, 8.3–8.7 → 11.0–11.8 ms with a 5 ms linger). A decision nobody can answer is answered at once with
 * `no-webhook`, in the same transaction. No inbox: an event is stored once by its id, so a message taken again (from
 * the bus after a post) changes nothing.
 */
export function createEventIntake(
  db: Db,
  logger: Logger,
  routing: RoutingTables,
  worker: Pick<DeliveryWorker, "room" | "take" | "wake">,
): EventIntake {
  const ingest = createGroupCommit<RoutedEvent[]>((batches) => storeEvents(db, batches.flat(), worker), {
    maxItems: MAX_EVENTS_STORED_TOGETHER,
    sizeOf: (batch) => batch.length,
    onGroupFailed: (err, batches) =>
      logger.warn({ err, batches }, "storing events together failed; storing each batch alone"),
  });
  return async (messages, validated) => {
    const batch: RoutedEvent[] = [];
    for (const [i, message] of messages.entries()) {
      const published = validated?.[i] ?? checked(message, logger);
      if (!published) continue;
      const { businessId, mode, data } = published;
      const policy = deliveryPolicy(data.envelope.event, data.envelope.data);
      const table = await routing.of(db, businessId, mode);
      const event = {
        id: data.envelope.metadata.event,
        businessId,
        mode,
        kind: data.envelope.event,
        resourceId: data.resourceId,
        // The producer's own fields (key order included), not the validated copy, plus the mode: what gets signed.
        envelope: deliveredEnvelope(
          (message.value as { data: { envelope: Record<string, unknown> } }).data.envelope,
          mode,
        ),
        policy: policy.kind,
        answerBy: data.answerBy ? new Date(data.answerBy) : null,
        traceparent: message.headers.traceparent ?? null,
        answerTo: data.answerTo ?? null,
      };
      eventTraces.remember(event.id, message.headers);
      batch.push({ event, webhookIds: routeEventTo(data.envelope.event, table, data.webhookId).map((w) => w.id) });
    }
    if (batch.length > 0) await ingest.write(batch);
  };
}

function checked(message: EventMessage, logger: Logger): EventPublishedMessage | undefined {
  const parsed = eventPublishedMessage.safeParse(message.value);
  if (!parsed.success) logger.error({ messageId: message.id }, "skipping malformed events.v1 message");
  return parsed.data;
}

export function subscribeToEvents(bus: Bus, intake: EventIntake) {
  return bus.subscribe({
    group: "event-dispatcher.events",
    topics: [TOPICS.events],
    batchHandler: (messages) => intake(messages),
  });
}

/** One statement (or one transaction with the `no-webhook` answers), then the claimed deliveries to the worker. */
async function storeEvents(db: Db, batch: RoutedEvent[], worker: Pick<DeliveryWorker, "room" | "take" | "wake">) {
  const unanswerable = batch.filter((r) => r.webhookIds.length === 0 && r.event.policy === "decision");
  let stored: StoredEvents;
  if (unanswerable.length === 0) stored = await insertEventsWithDeliveries(db, batch, worker.room());
  else {
    stored = await db.tx(async (tx) => {
      const result = await insertEventsWithDeliveries(tx, batch, worker.room());
      for (const { event } of unanswerable.filter((r) => result.inserted.has(r.event.id))) {
        await enqueueDecision(
          tx,
          {
            eventId: event.id,
            resourceId: event.resourceId,
            webhookId: null,
            businessId: event.businessId,
            mode: event.mode,
          },
          {
            httpStatus: null,
            body: null,
            latencyMs: null,
            error: "no-webhook",
          },
        );
      }
      return result;
    });
  }
  await worker.take(stored.claimed);
  if (stored.pending > 0) worker.wake();
}
