import type { Queryable } from "@cardhold/db";
import { scopedResource } from "@cardhold/query";
import { newId } from "@cardhold/platform";
import type { DeliveryPolicy } from "../domain/delivery-policy";

export interface NewEvent {
  id: string;
  businessId: string;
  mode: string;
  kind: string;
  resourceId: string;
  envelope: string;
  policy: DeliveryPolicy["kind"];
  /** A decision's deadline, when the producer gave one. */
  answerBy: Date | null;
}

export interface RoutedEvent {
  event: NewEvent;
  webhookIds: string[];
}

/**
 * Stores a batch of events, each once (by id), and one delivery per routed webhook, in one statement (one commit);
 * returns the ids of the events that were new (a known event's deliveries are not added again). Deliveries get their
 * seq in the batch's order, which is the order the producer published in.
 */
export async function insertEventsWithDeliveries(db: Queryable, batch: RoutedEvent[]): Promise<Set<string>> {
  const column = <T>(pick: (e: NewEvent) => T) => batch.map((r) => pick(r.event));
  const routed = batch.flatMap((r) => r.webhookIds.map((webhookId) => ({ event: r.event, webhookId })));
  const { rows } = await db.query<{ id: string }>(
    `WITH event AS (
       INSERT INTO dispatcher.events (id, business_id, mode, kind, resource_id, envelope, policy, status, answer_by)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                            $8::text[], $9::timestamptz[])
       ON CONFLICT (id) DO NOTHING
       RETURNING id),
     deliveries AS (
       INSERT INTO dispatcher.deliveries (id, event_id, webhook_id, resource_id, policy, status)
       SELECT routed.id, routed.event_id, routed.webhook_id, routed.resource_id, routed.policy, 'pending'
         FROM unnest($10::text[], $11::text[], $12::text[], $13::text[], $14::text[])
              WITH ORDINALITY AS routed (id, event_id, webhook_id, resource_id, policy, ord)
        WHERE routed.event_id IN (SELECT id FROM event)
        ORDER BY routed.ord
       ON CONFLICT (event_id, webhook_id) DO NOTHING)
     SELECT id FROM event`,
    [
      column((e) => e.id), column((e) => e.businessId), column((e) => e.mode), column((e) => e.kind),
      column((e) => e.resourceId), column((e) => e.envelope), column((e) => e.policy),
      batch.map((r) => (r.webhookIds.length ? "pending" : "failed")), column((e) => e.answerBy),
      routed.map(() => newId("delivery")), routed.map((r) => r.event.id), routed.map((r) => r.webhookId),
      routed.map((r) => r.event.resourceId), routed.map((r) => r.event.policy),
    ],
  );
  return new Set(rows.map((r) => r.id));
}

/** The event's status follows its deliveries: failed if any failed, delivered when all are, else pending. */
export async function refreshEventStatus(db: Queryable, eventId: string): Promise<void> {
  await db.query(
    `UPDATE dispatcher.events e SET status = CASE
        WHEN EXISTS (SELECT 1 FROM dispatcher.deliveries d WHERE d.event_id = e.id AND d.status = 'failed') THEN 'failed'
        WHEN NOT EXISTS (SELECT 1 FROM dispatcher.deliveries d WHERE d.event_id = e.id) THEN 'failed'
        WHEN NOT EXISTS (SELECT 1 FROM dispatcher.deliveries d WHERE d.event_id = e.id AND d.status <> 'delivered') THEN 'delivered'
        ELSE 'pending' END
      WHERE e.id = $1`,
    [eventId],
  );
}

export interface EventRow {
  id: string;
  kind: string;
  resource_id: string;
  envelope: string;
  status: string;
  created_at: Date;
}

export const eventResource = scopedResource("event", "dispatcher.events", {
  id: { type: "id", column: "id", sortable: true },
  event: { type: "string", column: "kind", sortable: true },
  resource: { type: "id", column: "resource_id" },
  status: { type: "string", column: "status", sortable: true },
  createdAt: { type: "date", column: "created_at", sortable: true },
});

export function toEventRecord(row: EventRow): Record<string, unknown> {
  const envelope = JSON.parse(row.envelope) as { data?: unknown };
  return {
    id: row.id,
    object: "event",
    event: row.kind,
    resource: row.resource_id,
    status: row.status,
    data: envelope.data,
    createdAt: row.created_at.toISOString(),
  };
}

export async function findEvent(db: Queryable, scope: { businessId: string; mode: string }, id: string) {
  const { rows } = await db.query<EventRow & Record<string, unknown>>(
    `SELECT id, kind, resource_id, envelope, status, created_at FROM dispatcher.events
      WHERE id = $1 AND business_id = $2 AND mode = $3`,
    [id, scope.businessId, scope.mode],
  );
  return rows[0];
}

interface AttemptRow {
  delivery_id: string;
  webhook_id: string;
  delivery_status: string;
  attempt_no: number | null;
  trigger: string | null;
  url: string | null;
  started_at: Date | null;
  http_status: number | null;
  latency_ms: number | null;
  response_excerpt: string | null;
  error: string | null;
  next_attempt_at: Date;
}

/** Every delivery of an event with every attempt, oldest first. */
export async function deliveriesOf(db: Queryable, eventId: string) {
  const { rows } = await db.query<AttemptRow & Record<string, unknown>>(
    `SELECT d.id AS delivery_id, d.webhook_id, d.status AS delivery_status, d.next_attempt_at,
            a.attempt_no, a.trigger, a.url, a.started_at, a.http_status, a.latency_ms, a.response_excerpt, a.error
       FROM dispatcher.deliveries d LEFT JOIN dispatcher.attempts a ON a.delivery_id = d.id
      WHERE d.event_id = $1 ORDER BY d.seq, a.id`,
    [eventId],
  );
  const deliveries = new Map<string, Record<string, unknown> & { attempts: Record<string, unknown>[] }>();
  for (const r of rows) {
    let delivery = deliveries.get(r.delivery_id);
    if (!delivery) {
      delivery = {
        webhook: r.webhook_id,
        status: r.delivery_status,
        nextAttemptAt: r.delivery_status === "pending" ? r.next_attempt_at.toISOString() : null,
        attempts: [],
      };
      deliveries.set(r.delivery_id, delivery);
    }
    if (r.attempt_no === null) continue;
    delivery.attempts.push({
      attempt: r.attempt_no,
      trigger: r.trigger,
      at: r.started_at?.toISOString(),
      url: r.url,
      httpStatus: r.http_status,
      latencyMs: r.latency_ms,
      response: r.response_excerpt,
      error: r.error,
    });
  }
  return [...deliveries.values()];
}

/** Makes every delivery of the event due now as a manual retry, with a fresh retry window. */
export async function retryDeliveries(db: Queryable, eventId: string): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE dispatcher.deliveries SET status = 'pending', trigger = 'manual', next_attempt_at = now(),
            first_attempt_at = NULL, updated_at = now()
      WHERE event_id = $1 AND status <> 'delivering'`,
    [eventId],
  );
  await db.query("UPDATE dispatcher.events SET status = 'pending' WHERE id = $1 AND $2 > 0", [eventId, rowCount ?? 0]);
  return rowCount ?? 0;
}
