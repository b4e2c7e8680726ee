import type { Queryable } from "@cardhold/db";
import type { Scope } from "@cardhold/query";
import type { FinalAnswer, RequestStatus } from "../domain/delayed-request";

export interface DelayedRequestRow {
  business_id: string;
  mode: string;
  id: string;
  method: string;
  path: string;
  status: RequestStatus;
  status_code: number | null;
  response_body: unknown;
  created_at: Date;
  completed_at: Date | null;
}

const COLUMNS = "business_id, mode, id, method, path, status, status_code, response_body, created_at, completed_at";

/** A request the gateway answered 202 and still waits for; undefined when the business already used this id. */
export async function insertProcessing(
  db: Queryable,
  r: { businessId: string; mode: string; id: string; apiKey: string; method: string; path: string },
): Promise<DelayedRequestRow | undefined> {
  const { rows } = await db.query<DelayedRequestRow & Record<string, unknown>>(
    `INSERT INTO gateway.delayed_requests (business_id, mode, id, api_key, method, path, status)
     VALUES ($1, $2, $3, $4, $5, $6, 'processing')
     ON CONFLICT (business_id, mode, id) DO NOTHING RETURNING ${COLUMNS}`,
    [r.businessId, r.mode, r.id, r.apiKey, r.method, r.path],
  );
  return rows[0];
}

/** Stores a processing request's final answer; undefined when it is no longer processing (failed as interrupted). */
export async function completeRequest(
  db: Queryable,
  key: Scope & { id: string },
  status: Exclude<RequestStatus, "processing">,
  answer: FinalAnswer,
): Promise<DelayedRequestRow | undefined> {
  const { rows } = await db.query<DelayedRequestRow & Record<string, unknown>>(
    `UPDATE gateway.delayed_requests
        SET status = $4, status_code = $5, response_body = $6::jsonb, completed_at = now()
      WHERE business_id = $1 AND mode = $2 AND id = $3 AND status = 'processing'
      RETURNING ${COLUMNS}`,
    [key.businessId, key.mode, key.id, status, answer.statusCode, JSON.stringify(answer.body)],
  );
  return rows[0];
}

/**
 * Fails every request processing for longer than `olderThanMs` (or only the one `only` names) with `answer`. Each row
 * is changed by one caller only, however many gateways sweep at once (the row lock and the status re-check).
 */
export async function failOverdue(
  db: Queryable,
  olderThanMs: number,
  answer: FinalAnswer,
  only?: Scope & { id: string },
): Promise<DelayedRequestRow[]> {
  const { rows } = await db.query<DelayedRequestRow & Record<string, unknown>>(
    `UPDATE gateway.delayed_requests
        SET status = 'failed', status_code = $2, response_body = $3::jsonb, completed_at = now()
      WHERE status = 'processing' AND created_at < now() - make_interval(secs => $1::double precision / 1000)
        AND ($4::text IS NULL OR (business_id = $4 AND mode = $5 AND id = $6))
      RETURNING ${COLUMNS}`,
    [
      olderThanMs,
      answer.statusCode,
      JSON.stringify(answer.body),
      only?.businessId ?? null,
      only?.mode ?? null,
      only?.id ?? null,
    ],
  );
  return rows;
}

export async function findRequest(db: Queryable, key: Scope & { id: string }): Promise<DelayedRequestRow | undefined> {
  const { rows } = await db.query<DelayedRequestRow & Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM gateway.delayed_requests WHERE business_id = $1 AND mode = $2 AND id = $3`,
    [key.businessId, key.mode, key.id],
  );
  return rows[0];
}

export function toRequestRecord(row: DelayedRequestRow): Record<string, unknown> {
  return {
    id: row.id,
    object: "request",
    method: row.method,
    path: row.path,
    status: row.status,
    statusCode: row.status_code,
    responseBody: row.response_body,
    createdAt: row.created_at.toISOString(),
    completedAt: row.completed_at?.toISOString() ?? null,
  };
}
