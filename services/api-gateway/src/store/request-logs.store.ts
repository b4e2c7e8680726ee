import type { Queryable } from "@cardhold/db";
import { scopedResource } from "@cardhold/query";

export interface RequestLogRow {
  id: string;
  api_key: string | null;
  request_id: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  request_body: unknown;
  response_body: unknown;
  created_at: Date;
}

export interface NewRequestLog extends Omit<RequestLogRow, "created_at"> {
  businessId: string;
  mode: string;
}

/** Several request logs in one statement. */
export async function insertRequestLogs(db: Queryable, logs: NewRequestLog[]): Promise<void> {
  const column = <T>(pick: (l: NewRequestLog) => T) => logs.map(pick);
  await db.query(
    `INSERT INTO gateway.request_logs
       (id, business_id, mode, api_key, request_id, method, path, status, duration_ms, request_body, response_body)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[],
                          $9::int[], $10::jsonb[], $11::jsonb[])`,
    [column((l) => l.id), column((l) => l.businessId), column((l) => l.mode), column((l) => l.api_key),
      column((l) => l.request_id), column((l) => l.method), column((l) => l.path), column((l) => l.status),
      column((l) => l.duration_ms), column((l) => JSON.stringify(l.request_body ?? null)),
      column((l) => JSON.stringify(l.response_body ?? null))],
  );
}

export const requestLogResource = scopedResource("log", "gateway.request_logs", {
  id: { type: "id", column: "id", sortable: true },
  method: { type: "string", column: "method", sortable: true },
  path: { type: "string", column: "path", sortable: true },
  status: { type: "number", column: "status", sortable: true },
  duration: { type: "number", column: "duration_ms", sortable: true },
  apiKey: { type: "id", column: "api_key" },
  requestId: { type: "id", column: "request_id" },
  requestBody: { type: "object", column: "request_body" },
  responseBody: { type: "object", column: "response_body", filterable: false },
  createdAt: { type: "date", column: "created_at", sortable: true },
}, { relations: { apiKey: "apiKey" } });

export function toRequestLogRecord(row: RequestLogRow): Record<string, unknown> {
  return {
    id: row.id,
    object: "log",
    method: row.method,
    path: row.path,
    status: row.status,
    duration: row.duration_ms,
    apiKey: row.api_key,
    requestId: row.request_id,
    requestBody: row.request_body,
    responseBody: row.response_body,
    createdAt: row.created_at.toISOString(),
  };
}
