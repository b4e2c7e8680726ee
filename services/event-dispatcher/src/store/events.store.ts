import type { Queryable } from "@cardhold/db";
import { scopedResource } from "@cardhold/query";
import { newId } from "@cardhold/platform";
import type { DeliveryPolicy } from "../domain/delivery-policy";
import type { ClaimedDelivery } from "./deliveries.store";

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
  /** The trace the event was published in (W3C traceparent), kept so that every delivery of it continues that trace. */
  traceparent?: string | null;
  /** A decision's way back: the asking engine's address, where the answer is posted (decisions.v1 otherwise). */
  answerTo?: string | null;
}

export interface RoutedEvent {
  event: NewEvent;
  webhookIds: string[];
}

/** What the delivery worker can send at once: deliveries within it are claimed as they are stored. */
export interface InsertClaim {
  /** At most this many in all, and this many notifications. */
  limit: number;
  notifications: number;
  claimMs: number;
  /** A webhook's room per kind when it has no send of that kind under way. */
  perWebhookDecisions: number;
  perWebhookNotifications: number;
  /** The room left of each webhook and kind with sends under way. */
  busy: { webhookId: string; policy: string; room: number }[];
  /**
   * How many notifications of one resource to one webhook may be claimed together from one batch (a chain: the
   * worker sends them one after the other, each once the one before it was delivered).
   */
  chain: number;
}

export interface StoredEvents {
  /** The events that were new (a known event's deliveries are not added again). */
  inserted: Set<string>;
  /** Deliveries claimed as they were stored: the caller hands them to the worker. */
  claimed: ClaimedDelivery[];
  /** Deliveries stored pending (for the worker's claim). */
  pending: number;
}

/** No room: every delivery is stored pending (also the room of a stopped worker). */
export const NO_ROOM: InsertClaim = {
  limit: 0,
  notifications: 0,
  claimMs: 0,
  perWebhookDecisions: 0,
  perWebhookNotifications: 0,
  busy: [],
  chain: 1,
};

/**
 * Stores a batch of events, each once (by id), and one delivery per routed webhook, in one statement (one commit).
 * Deliveries get their seq in the batch's order, which is the order the producer published in. A delivery the worker
 * could claim at once is stored claimed (`delivering`, as the worker's claim would leave it) and returned, which
 * saves the claim's statement and its row version: the first of its resource in the batch, with no unfinished
 * delivery of that resource to that webhook (per-resource order; asked through `dispatcher.resource_free`, which waits
 * for a concurrent store of the same resource to commit and sees it), within `claim`'s room (decisions first). When a
 * resource's deliveries to a webhook in the batch are all notifications (an authorization's closed and transaction
 * events), up to `claim.chain` of them are claimed together and returned in order: the worker sends each once the one
 * before it is delivered, with no claim statement between them.
 */
export async function insertEventsWithDeliveries(
  db: Queryable,
  batch: RoutedEvent[],
  claim: InsertClaim = NO_ROOM,
): Promise<StoredEvents> {
  const column = <T>(pick: (e: NewEvent) => T) => batch.map((r) => pick(r.event));
  const routed = batch.flatMap((r) => r.webhookIds.map((webhookId) => ({ event: r.event, webhookId })));
  const { rows } = await db.query<ClaimedDelivery & { inserted: string[]; stored: number } & Record<string, unknown>>(
    `WITH event AS (
       INSERT INTO dispatcher.events (id, business_id, mode, kind, resource_id, envelope, policy, status, answer_by,
                                      traceparent, answer_to)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[],
                            ARRAY(SELECT e::text FROM json_array_elements($6::json) WITH ORDINALITY AS x (e, n) ORDER BY n),
                            $7::text[], $8::text[], $9::timestamptz[], $24::text[], $25::text[])
       ON CONFLICT (id) DO NOTHING
       RETURNING id, business_id, mode, envelope, created_at, answer_by, traceparent, answer_to),
     routed AS (
       SELECT r.*, row_number() OVER (PARTITION BY r.webhook_id, r.resource_id ORDER BY r.ord) AS nth_of_resource,
              row_number() OVER (PARTITION BY r.webhook_id, r.policy ORDER BY r.ord) AS nth_of_lane,
              count(*) OVER (PARTITION BY r.event_id)::int AS event_deliveries,
              bool_and(r.policy = 'notification') OVER (PARTITION BY r.webhook_id, r.resource_id) AS notifications_only
         FROM unnest($10::text[], $11::text[], $12::text[], $13::text[], $14::text[])
              WITH ORDINALITY AS r (id, event_id, webhook_id, resource_id, policy, ord)
        WHERE r.event_id IN (SELECT id FROM event)),
     sendable AS (
       SELECT r.id, r.policy, r.ord FROM routed r
         LEFT JOIN unnest($16::text[], $17::text[], $18::int[]) AS busy (webhook_id, policy, room)
                ON busy.webhook_id = r.webhook_id AND busy.policy = r.policy
        WHERE (r.nth_of_resource = 1 OR (r.notifications_only AND r.nth_of_resource <= $23))
          AND r.nth_of_lane <= COALESCE(busy.room, CASE WHEN r.policy = 'decision' THEN $19::int ELSE $20::int END)
          AND dispatcher.resource_free(r.webhook_id, r.resource_id)),
     chosen AS (
       SELECT id FROM (
         SELECT s.id, s.policy, row_number() OVER w AS nth, count(*) FILTER (WHERE s.policy = 'notification') OVER w AS nth_notification
           FROM sendable s WINDOW w AS (ORDER BY s.policy = 'decision' DESC, s.ord)) x
        WHERE x.nth <= $21 AND (x.policy = 'decision' OR x.nth_notification <= $22)),
     deliveries AS (
       INSERT INTO dispatcher.deliveries (id, event_id, webhook_id, resource_id, policy, status, attempts, claimed_until, first_attempt_at)
       SELECT r.id, r.event_id, r.webhook_id, r.resource_id, r.policy,
              CASE WHEN c.id IS NULL THEN 'pending' ELSE 'delivering' END,
              CASE WHEN c.id IS NULL THEN 0 ELSE 1 END,
              CASE WHEN c.id IS NULL THEN NULL ELSE now() + $15 * interval '1 millisecond' END,
              CASE WHEN c.id IS NULL THEN NULL ELSE now() END
         FROM routed r LEFT JOIN chosen c ON c.id = r.id
        ORDER BY r.ord
       ON CONFLICT (event_id, webhook_id) DO NOTHING
       RETURNING id, event_id, webhook_id, resource_id, policy, status, attempts, trigger, first_attempt_at)
     SELECT ARRAY(SELECT id FROM event) AS inserted, (SELECT count(*)::int FROM deliveries) AS stored,
            d.id, d.event_id, d.webhook_id, d.resource_id, d.policy, d.attempts, d.trigger, d.first_attempt_at,
            e.business_id, e.mode, e.envelope, e.created_at AS event_created_at, e.answer_by, e.traceparent, e.answer_to, w.url,
            w.sealed_signing_key, w.sealed_previous_signing_key, w.previous_signing_key_expires_at, w.signature_headers,
            r.event_deliveries
       FROM (SELECT 1) one
       LEFT JOIN deliveries d ON d.status = 'delivering'
       LEFT JOIN event e ON e.id = d.event_id
       LEFT JOIN routed r ON r.id = d.id
       LEFT JOIN dispatcher.webhooks w ON w.id = d.webhook_id
      ORDER BY d.policy = 'decision' DESC, r.ord`,
    [
      column((e) => e.id),
      column((e) => e.businessId),
      column((e) => e.mode),
      column((e) => e.kind),
      column((e) => e.resourceId),
      // One JSON array of the envelopes as they are: as text[], node-postgres escaped every quote of each (see outboxInsert).
      `[${column((e) => e.envelope).join(",")}]`,
      column((e) => e.policy),
      batch.map((r) => (r.webhookIds.length ? "pending" : "failed")),
      column((e) => e.answerBy),
      routed.map(() => newId("delivery")),
      routed.map((r) => r.event.id),
      routed.map((r) => r.webhookId),
      routed.map((r) => r.event.resourceId),
      routed.map((r) => r.event.policy),
      claim.claimMs,
      claim.busy.map((b) => b.webhookId),
      claim.busy.map((b) => b.policy),
      claim.busy.map((b) => b.room),
      claim.perWebhookDecisions,
      claim.perWebhookNotifications,
      claim.limit,
      claim.notifications,
      claim.chain,
      column((e) => e.traceparent ?? null),
      column((e) => e.answerTo ?? null),
    ],
  );
  const claimed = rows.filter((r) => r.id !== null);
  return { inserted: new Set(rows[0]?.inserted ?? []), claimed, pending: (rows[0]?.stored ?? 0) - claimed.length };
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
  /** The same as resource (the record calls it resource): `resourceId:<authorization id>` is one timeline's events. */
  resourceId: { type: "id", column: "resource_id", selectable: false },
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
