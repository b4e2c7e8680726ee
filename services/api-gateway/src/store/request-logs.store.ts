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

/** A request log to write; its bodies are already JSON text (redacted, see request-log.ts). */
export interface NewRequestLog extends Omit<RequestLogRow, "created_at" | "request_body" | "response_body"> {
  businessId: string;
  mode: string;
  requestBodyJson: string;
  responseBodyJson: string;
}

/**
 * Several request logs in one statement, sent as one JSON document: the bodies go in as the JSON text they already
 * are, not escaped again element by element as a text[] parameter would be.
 */
export async function insertRequestLogs(db: Queryable, logs: NewRequestLog[]): Promise<void> {
  const rows = logs.map(
    (l) =>
      `{"id":${JSON.stringify(l.id)},"business_id":${JSON.stringify(l.businessId)},"mode":${JSON.stringify(l.mode)},` +
      `"api_key":${JSON.stringify(l.api_key)},"request_id":${JSON.stringify(l.request_id)},"method":${JSON.stringify(l.method)},` +
      `"path":${JSON.stringify(l.path)},"status":${l.status},"duration_ms":${l.duration_ms},` +
      `"request_body":${l.requestBodyJson},"response_body":${l.responseBodyJson}}`,
  );
  await db.query(
    `INSERT INTO gateway.request_logs
       (id, business_id, mode, api_key, request_id, method, path, status, duration_ms, request_body, response_body)
     SELECT * FROM json_to_recordset($1::json) AS l(id text, business_id text, mode text, api_key text, request_id text,
                   method text, path text, status int, duration_ms int, request_body jsonb, response_body jsonb)`,
    [`[${rows.join(",")}]`],
  );
}

export const requestLogResource = scopedResource(
  "log",
  "gateway.request_logs",
  {
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
  },
  { relations: { apiKey: "apiKey" } },
);

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
