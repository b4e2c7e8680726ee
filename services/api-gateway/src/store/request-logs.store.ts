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

export async function insertRequestLog(db: Queryable, log: NewRequestLog): Promise<void> {
  await db.query(
    `INSERT INTO gateway.request_logs
       (id, business_id, mode, api_key, request_id, method, path, status, duration_ms, request_body, response_body)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [log.id, log.businessId, log.mode, log.api_key, log.request_id, log.method, log.path, log.status, log.duration_ms,
      JSON.stringify(log.request_body ?? null), JSON.stringify(log.response_body ?? null)],
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
