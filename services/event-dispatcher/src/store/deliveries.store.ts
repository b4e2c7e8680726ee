import type { OutboxInsert } from "@cardhold/bus";
import type { Queryable } from "@cardhold/db";
import type { InsertClaim } from "./events.store";

export interface ClaimedDelivery {
  id: string;
  event_id: string;
  webhook_id: string;
  resource_id: string;
  policy: "decision" | "notification";
  attempts: number;
  trigger: "initial" | "scheduled" | "manual";
  first_attempt_at: Date | null;
  business_id: string;
  mode: string;
  envelope: string;
  url: string | null;
  /** The webhook's signing key, sealed (the worker opens it to sign). */
  sealed_signing_key: string | null;
  /** The key a roll replaced, sealed, and when it stops signing (null when there is none). */
  sealed_previous_signing_key: string | null;
  previous_signing_key_expires_at: Date | null;
  /** Extra header names the signature goes under too (null when the webhook is gone). */
  signature_headers: string[] | null;
  event_created_at: Date;
  answer_by: Date | null;
  /** The trace the event was published in, if it was traced. */
  traceparent: string | null;
  /** A decision's way back: the asking engine's address, where the answer is posted (decisions.v1 otherwise). */
  answer_to: string | null;
  /** How many webhooks the event goes to (usually one). */
  event_deliveries: number;
}

/** The worker's room: in all, for notifications, and per webhook and kind (the lanes with sends under way). */
export type ClaimLimits = Omit<InsertClaim, "chain">;

export interface Claim {
  deliveries: ClaimedDelivery[];
  /** Due deliveries seen waiting behind an unfinished earlier one of their resource (claimable once it finishes). */
  blocked: number;
}

/**
 * Claims due deliveries for sending. A delivery is due when its time has come and no earlier delivery of the same
 * resource to the same webhook is unfinished (per-resource order). Each lane (a webhook's decisions, or its
 * notifications) is read apart, from its own index, and gets no more than its room: a webhook with a backlog and no
 * room costs one index probe, never a walk through its backlog, and nothing is claimed only to be given back.
 * Decisions go first within the total limit. The claim lasts `claimMs`; a dispatcher that dies mid-send leaves it to
 * expire and be claimed again.
 */
export async function claimDueDeliveries(db: Queryable, limits: ClaimLimits): Promise<Claim> {
  const { rows } = await db.query<ClaimedDelivery & { blocked: number } & Record<string, unknown>>(
    `WITH RECURSIVE lanes AS (
       -- Every (webhook, kind) with a pending delivery, one index probe each (a loose index scan).
       (SELECT d.webhook_id, d.policy FROM dispatcher.deliveries d WHERE d.status = 'pending'
         ORDER BY d.webhook_id, d.policy LIMIT 1)
       UNION ALL
       SELECT next.webhook_id, next.policy FROM lanes l CROSS JOIN LATERAL (
         SELECT d.webhook_id, d.policy FROM dispatcher.deliveries d
          WHERE d.status = 'pending' AND (d.webhook_id, d.policy) > (l.webhook_id, l.policy)
          ORDER BY d.webhook_id, d.policy LIMIT 1) next),
     rooms AS (
       SELECT l.webhook_id, l.policy,
              COALESCE(busy.room, CASE WHEN l.policy = 'decision' THEN $4::int ELSE $5::int END) AS room
         FROM lanes l
         LEFT JOIN unnest($6::text[], $7::text[], $8::int[]) AS busy (webhook_id, policy, room)
                ON busy.webhook_id = l.webhook_id AND busy.policy = l.policy
        WHERE l.policy = 'decision' OR $3::int > 0),
     candidates AS (
       -- Each lane's first due deliveries in claim order; a few more than its room, as some may wait on their resource.
       SELECT c.*, r.room FROM rooms r CROSS JOIN LATERAL (
         SELECT d.id, d.seq, d.webhook_id, d.resource_id, d.policy, d.next_attempt_at FROM dispatcher.deliveries d
          WHERE d.status = 'pending' AND d.webhook_id = r.webhook_id AND d.policy = r.policy AND d.next_attempt_at <= now()
          ORDER BY d.next_attempt_at, d.seq
          LIMIT r.room + 16) c
        WHERE r.room > 0),
     ranked AS (
       -- Ready when it is the first unfinished delivery of its resource to its webhook (per-resource order).
       SELECT c.*, c.seq = (
                SELECT min(earlier.seq) FROM dispatcher.deliveries earlier
                 WHERE earlier.webhook_id = c.webhook_id AND earlier.resource_id = c.resource_id
                   AND earlier.status IN ('pending', 'delivering')) AS ready
         FROM candidates c),
     within_lane AS (
       SELECT r.*, row_number() OVER (PARTITION BY r.webhook_id, r.policy ORDER BY r.next_attempt_at, r.seq) AS nth_of_lane
         FROM ranked r WHERE r.ready),
     chosen AS (
       SELECT x.id FROM (
         SELECT w.id, w.policy, row_number() OVER o AS nth, count(*) FILTER (WHERE w.policy = 'notification') OVER o AS nth_notification
           FROM within_lane w WHERE w.nth_of_lane <= w.room
         WINDOW o AS (ORDER BY w.policy = 'decision' DESC, w.next_attempt_at, w.seq)) x
        WHERE x.nth <= $1 AND (x.policy = 'decision' OR x.nth_notification <= $3)),
     due AS (
       -- By primary key (an id list, not a join): a join let the generic plan scan every delivery ever stored.
       SELECT d.id FROM dispatcher.deliveries d
        WHERE d.id = ANY (ARRAY(SELECT id FROM chosen)) AND d.status = 'pending'
        FOR UPDATE OF d SKIP LOCKED),
     claimed AS (
       UPDATE dispatcher.deliveries d
          SET status = 'delivering', attempts = d.attempts + 1, claimed_until = now() + $2 * interval '1 millisecond',
              first_attempt_at = COALESCE(d.first_attempt_at, now()), updated_at = now()
         FROM due WHERE d.id = due.id
       RETURNING d.*)
     SELECT c.id, c.event_id, c.webhook_id, c.resource_id, c.policy, c.attempts, c.trigger, c.first_attempt_at,
            e.business_id, e.mode, e.envelope, e.created_at AS event_created_at, e.answer_by, e.traceparent, e.answer_to, w.url,
            w.sealed_signing_key, w.sealed_previous_signing_key, w.previous_signing_key_expires_at,
            w.signature_headers,
            (SELECT count(*)::int FROM dispatcher.deliveries x WHERE x.event_id = c.event_id) AS event_deliveries,
            waiting.blocked
       FROM (SELECT count(*) FILTER (WHERE NOT ready)::int AS blocked FROM ranked) waiting
       LEFT JOIN claimed c ON true
       LEFT JOIN dispatcher.events e ON e.id = c.event_id
       LEFT JOIN dispatcher.webhooks w ON w.id = c.webhook_id
      ORDER BY c.policy = 'decision' DESC, c.next_attempt_at, c.seq`,
    [
      limits.limit,
      limits.claimMs,
      limits.notifications,
      limits.perWebhookDecisions,
      limits.perWebhookNotifications,
      limits.busy.map((b) => b.webhookId),
      limits.busy.map((b) => b.policy),
      limits.busy.map((b) => b.room),
    ],
  );
  return { deliveries: rows.filter((r) => r.id !== null), blocked: rows[0]?.blocked ?? 0 };
}

/** Gives a claimed delivery back untouched (the worker had no room for it after all). */
export async function releaseClaim(db: Queryable, id: string): Promise<void> {
  await db.query(
    `UPDATE dispatcher.deliveries SET status = 'pending', attempts = attempts - 1, claimed_until = NULL,
            first_attempt_at = CASE WHEN attempts = 1 THEN NULL ELSE first_attempt_at END
      WHERE id = $1 AND status = 'delivering'`,
    [id],
  );
}

/** A notification whose dispatcher died mid-send goes back to pending and is sent again. */
export async function reclaimExpiredNotifications(db: Queryable): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE dispatcher.deliveries SET status = 'pending', claimed_until = NULL, updated_at = now()
      WHERE status = 'delivering' AND claimed_until < now() AND policy = 'notification'`,
  );
  return rowCount ?? 0;
}

export interface ExpiredDecision {
  id: string;
  event_id: string;
  webhook_id: string;
  resource_id: string;
  business_id: string;
  mode: string;
}

/** A decision whose dispatcher died mid-send is not resent (the answer would come too late): it fails. */
export async function failExpiredDecisions(db: Queryable): Promise<ExpiredDecision[]> {
  const { rows } = await db.query<ExpiredDecision & Record<string, unknown>>(
    `UPDATE dispatcher.deliveries d SET status = 'failed', claimed_until = NULL, updated_at = now()
       FROM dispatcher.events e
      WHERE e.id = d.event_id AND d.status = 'delivering' AND d.claimed_until < now() AND d.policy = 'decision'
      RETURNING d.id, d.event_id, d.webhook_id, d.resource_id, e.business_id, e.mode`,
  );
  return rows;
}

export interface AttemptOutcome {
  deliveryId: string;
  eventId: string;
  /** The event's business and mode (GET /events/stats counts attempts by them). */
  businessId: string;
  mode: string;
  attemptNo: number;
  trigger: string;
  url: string;
  startedAt: Date;
  httpStatus: number | null;
  latencyMs: number | null;
  responseExcerpt: string | null;
  error: string | null;
}

/** Where a delivery goes after an attempt: done (delivered or failed for good), or due again at a time. */
export type NextStep = { status: "delivered" | "failed" } | { status: "pending"; at: Date };

/**
 * The attempt's row and the delivery's next step, in one statement. When the delivery is its event's only one, the
 * event's status is the delivery's and is set in the same statement; otherwise call refreshEventStatus after it.
 * `then` (its parameters numbered from 16) adds the decision's answer to the outbox in the same statement.
 */
export async function recordAttempt(
  db: Queryable,
  a: AttemptOutcome,
  next: NextStep,
  soleDeliveryOfEvent = false,
  then?: OutboxInsert,
): Promise<void> {
  const updateDelivery = `UPDATE dispatcher.deliveries
        SET status = $11, claimed_until = NULL, updated_at = now(),
            trigger = CASE WHEN $11 = 'pending' THEN 'scheduled' ELSE trigger END,
            next_attempt_at = COALESCE($12, next_attempt_at)
      WHERE id = $1`;
  await db.query(
    `WITH attempt AS (
       INSERT INTO dispatcher.attempts
         (delivery_id, event_id, attempt_no, trigger, url, started_at, http_status, latency_ms, response_excerpt, error,
          business_id, mode)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $14, $15)),
     event AS (
       UPDATE dispatcher.events SET status = $11 WHERE id = $2 AND $13::boolean)
     ${then ? `, delivery AS (${updateDelivery}) ${then.text}` : updateDelivery}`,
    [
      a.deliveryId,
      a.eventId,
      a.attemptNo,
      a.trigger,
      a.url,
      a.startedAt,
      a.httpStatus,
      a.latencyMs,
      a.responseExcerpt,
      a.error,
      next.status,
      next.status === "pending" ? next.at : null,
      soleDeliveryOfEvent,
      a.businessId,
      a.mode,
      ...(then?.values ?? []),
    ],
  );
}

export interface RecordedAttempt {
  attempt: AttemptOutcome;
  next: NextStep;
}

/**
 * Attempts of notifications that are their event's only delivery, with each delivery's next step and its event's
 * status, in one statement for all of them (what recordAttempt does for one). One delivery must not appear twice.
 */
export async function recordSoleNotificationAttempts(db: Queryable, recorded: RecordedAttempt[]): Promise<void> {
  if (recorded.length === 1) return recordAttempt(db, recorded[0]!.attempt, recorded[0]!.next, true);
  const rows = recorded.map(({ attempt: a, next }) => ({
    delivery_id: a.deliveryId,
    event_id: a.eventId,
    attempt_no: a.attemptNo,
    trigger: a.trigger,
    url: a.url,
    started_at: a.startedAt.toISOString(),
    http_status: a.httpStatus,
    latency_ms: a.latencyMs,
    response_excerpt: a.responseExcerpt,
    error: a.error,
    business_id: a.businessId,
    mode: a.mode,
    status: next.status,
    next_attempt_at: next.status === "pending" ? next.at.toISOString() : null,
  }));
  await db.query(
    `WITH a AS (
       SELECT * FROM json_to_recordset($1::json) AS a (delivery_id text, event_id text, attempt_no int, trigger text,
         url text, started_at timestamptz, http_status int, latency_ms int, response_excerpt text, error text,
         business_id text, mode text, status text, next_attempt_at timestamptz)),
     attempt AS (
       INSERT INTO dispatcher.attempts
         (delivery_id, event_id, attempt_no, trigger, url, started_at, http_status, latency_ms, response_excerpt, error,
          business_id, mode)
       SELECT delivery_id, event_id, attempt_no, trigger, url, started_at, http_status, latency_ms, response_excerpt, error,
              business_id, mode
         FROM a),
     event AS (
       UPDATE dispatcher.events e SET status = a.status FROM a WHERE e.id = a.event_id AND e.id = ANY($3::text[]))
     UPDATE dispatcher.deliveries d
        SET status = a.status, claimed_until = NULL, updated_at = now(),
            trigger = CASE WHEN a.status = 'pending' THEN 'scheduled' ELSE d.trigger END,
            next_attempt_at = COALESCE(a.next_attempt_at, d.next_attempt_at)
       FROM a WHERE d.id = a.delivery_id AND d.id = ANY($2::text[])`,
    // The id lists let the planner reach both tables by their primary keys (it cannot see into the JSON).
    [JSON.stringify(rows), rows.map((r) => r.delivery_id), rows.map((r) => r.event_id)],
  );
}

/** Past this many, due deliveries are counted as this many: the count stays one bounded scan of the due index. */
export const DUE_COUNT_CAP = 100_000;

export interface DueDeliveries {
  count: number;
  /** How long the earliest due one has been due (0 when none is). */
  oldestDueSeconds: number;
}

/**
 * Deliveries whose attempt is due and that no worker has claimed, per kind, for a metrics scrape: pending entries of
 * deliveries_due_per_lane. Those waiting behind an unfinished earlier delivery of their resource count too. Past the
 * cap, both numbers are floors.
 */
export async function dueDeliveries(db: Queryable): Promise<Record<ClaimedDelivery["policy"], DueDeliveries>> {
  const { rows } = await db.query<{ policy: ClaimedDelivery["policy"]; count: number; oldest_due_seconds: number }>(
    `SELECT policy, count(*)::int AS count,
            COALESCE(extract(epoch FROM clock_timestamp() - min(next_attempt_at)), 0)::float8 AS oldest_due_seconds
       FROM (SELECT policy, next_attempt_at FROM dispatcher.deliveries
              WHERE status = 'pending' AND next_attempt_at <= now() LIMIT ${DUE_COUNT_CAP}) due
      GROUP BY policy`,
  );
  const none: DueDeliveries = { count: 0, oldestDueSeconds: 0 };
  const of = (policy: ClaimedDelivery["policy"]) => {
    const row = rows.find((r) => r.policy === policy);
    return row ? { count: row.count, oldestDueSeconds: Math.max(0, row.oldest_due_seconds) } : none;
  };
  return { decision: of("decision"), notification: of("notification") };
}
