import type { Queryable } from "@cardhold/db";
import type { StandInRequest, WebhookConfig, WebhookRecord } from "@cardhold/contracts";
import { scopedResource } from "@cardhold/query";

export const SCHEMA = "webhooks";

export interface Scope {
  businessId: string;
  mode: string;
}

export interface WebhookRow {
  id: string;
  business_id: string;
  mode: string;
  name: string;
  description: string | null;
  url: string;
  events: string[];
  api_version: string | null;
  /** The signing key sealed under SECRETS_KEY (signingKeySealer, bound to the id); never stored in plain. */
  sealed_signing_key: string;
  /** The key the last roll replaced, sealed the same way, and when it stops signing; both null when there is none. */
  sealed_previous_signing_key: string | null;
  previous_signing_key_expires_at: Date | null;
  status: "created" | "enabled" | "disabled";
  is_default: boolean;
  timeout_default: "approve" | "decline" | null;
  metadata: Record<string, unknown>;
  /** Extra header names deliveries carry the signature under, as written. */
  signature_headers: string[];
  /** Stand-in rules for the captures the webhook decides, as parsed (contracts' standInSchema); null: none. */
  stand_in: StandInRequest | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, business_id, mode, name, description, url, events, api_version, sealed_signing_key,
  sealed_previous_signing_key, previous_signing_key_expires_at, status, is_default, timeout_default, metadata,
  signature_headers, stand_in, created_at, updated_at`;

export const webhookResource = scopedResource("webhook", "webhooks.webhooks", {
  id: { type: "id", column: "id", sortable: true },
  name: { type: "string", column: "name", sortable: true },
  description: { type: "string", column: "description" },
  url: { type: "string", column: "url" },
  events: { type: "array", column: "events" },
  status: { type: "string", column: "status", sortable: true },
  isDefault: { type: "boolean", column: "is_default" },
  apiVersion: { type: "string", column: "api_version" },
  timeoutDefault: { type: "string", column: "timeout_default" },
  metadata: { type: "object", column: "metadata" },
  signatureHeaders: { type: "array", column: "signature_headers" },
  createdAt: { type: "date", column: "created_at", sortable: true },
  updatedAt: { type: "date", column: "updated_at", sortable: true },
});

/** The public record; never a signing key. */
export function toWebhookRecord(row: WebhookRow): WebhookRecord {
  return {
    id: row.id,
    object: "webhook",
    name: row.name,
    description: row.description,
    url: row.url,
    events: row.events,
    apiVersion: row.api_version,
    status: row.status,
    isDefault: row.is_default,
    timeoutDefault: row.timeout_default,
    metadata: row.metadata,
    signatureHeaders: row.signature_headers,
    standIn: row.stand_in,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** What the dispatcher needs to route and sign (webhooks.v1), the key a roll replaced too while it has one. */
export function toWebhookConfig(row: WebhookRow): WebhookConfig {
  const previous =
    row.sealed_previous_signing_key && row.previous_signing_key_expires_at
      ? {
          sealedPreviousSigningKey: row.sealed_previous_signing_key,
          previousSigningKeyExpiresAt: row.previous_signing_key_expires_at.toISOString(),
        }
      : {};
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    events: row.events,
    sealedSigningKey: row.sealed_signing_key,
    status: row.status,
    isDefault: row.is_default,
    timeoutDefault: row.timeout_default,
    signatureHeaders: row.signature_headers,
    standIn: row.stand_in,
    ...previous,
  };
}

/** Inserts the default webhook of a business and mode (its key already sealed); undefined when it already exists. */
export async function insertDefaultWebhook(
  db: Queryable,
  w: { id: string; businessId: string; mode: string; url: string; sealedSigningKey: string },
): Promise<WebhookRow | undefined> {
  const { rows } = await db.query<WebhookRow & Record<string, unknown>>(
    `INSERT INTO webhooks.webhooks (id, business_id, mode, name, url, sealed_signing_key, status, is_default)
     VALUES ($1, $2, $3, 'default', $4, $5, 'enabled', true)
     ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
    [w.id, w.businessId, w.mode, w.url, w.sealedSigningKey],
  );
  return rows[0];
}

export interface NewWebhook {
  id: string;
  name: string;
  description?: string;
  url: string;
  events: string[];
  apiVersion?: string;
  sealedSigningKey: string;
  timeoutDefault?: string;
  metadata?: Record<string, unknown>;
  signatureHeaders?: string[];
  standIn?: StandInRequest | null;
}

export async function insertWebhook(db: Queryable, scope: Scope, w: NewWebhook): Promise<WebhookRow> {
  const { rows } = await db.query<WebhookRow & Record<string, unknown>>(
    `INSERT INTO webhooks.webhooks (id, business_id, mode, name, description, url, events, api_version, sealed_signing_key,
       status, is_default, timeout_default, metadata, signature_headers, stand_in)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'created', false, $10, $11, $12, $13) RETURNING ${COLUMNS}`,
    [
      w.id,
      scope.businessId,
      scope.mode,
      w.name,
      w.description ?? null,
      w.url,
      JSON.stringify(w.events),
      w.apiVersion ?? null,
      w.sealedSigningKey,
      w.timeoutDefault ?? null,
      w.metadata ?? {},
      JSON.stringify(w.signatureHeaders ?? []),
      w.standIn ? JSON.stringify(w.standIn) : null,
    ],
  );
  return rows[0]!;
}

/** One webhook of the scope; with forUpdate, locked for a change in the caller's transaction. */
export async function findWebhook(
  db: Queryable,
  scope: Scope,
  id: string,
  forUpdate = false,
): Promise<WebhookRow | undefined> {
  const { rows } = await db.query<WebhookRow & Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM webhooks.webhooks WHERE id = $1 AND business_id = $2 AND mode = $3${forUpdate ? " FOR UPDATE" : ""}`,
    [id, scope.businessId, scope.mode],
  );
  return rows[0];
}

/** Writes the row's mutable fields back (the use case computed them) and stamps updated_at. */
export async function saveWebhook(db: Queryable, scope: Scope, w: WebhookRow): Promise<WebhookRow | undefined> {
  const { rows } = await db.query<WebhookRow & Record<string, unknown>>(
    `UPDATE webhooks.webhooks SET name = $2, description = $3, url = $4, events = $5, api_version = $6,
       sealed_signing_key = $7, status = $8, timeout_default = $9, metadata = $10, signature_headers = $13,
       sealed_previous_signing_key = $14, previous_signing_key_expires_at = $15, stand_in = $16,
       updated_at = clock_timestamp()
     WHERE id = $1 AND business_id = $11 AND mode = $12 RETURNING ${COLUMNS}`,
    [
      w.id,
      w.name,
      w.description,
      w.url,
      JSON.stringify(w.events),
      w.api_version,
      w.sealed_signing_key,
      w.status,
      w.timeout_default,
      w.metadata,
      scope.businessId,
      scope.mode,
      JSON.stringify(w.signature_headers),
      w.sealed_previous_signing_key,
      w.previous_signing_key_expires_at,
      w.stand_in ? JSON.stringify(w.stand_in) : null,
    ],
  );
  return rows[0];
}

/** Deletes a webhook of the scope (never the default one); false when there was none. */
export async function deleteWebhook(db: Queryable, scope: Scope, id: string): Promise<boolean> {
  const { rowCount } = await db.query(
    "DELETE FROM webhooks.webhooks WHERE id = $1 AND business_id = $2 AND mode = $3 AND NOT is_default",
    [id, scope.businessId, scope.mode],
  );
  return rowCount === 1;
}

/**
 * Takes the webhooks a migration queued for publishing again (webhooks.republish), locked, and empties the queue in
 * the caller's transaction: with several replicas starting at once, each queued webhook is taken once.
 */
export async function takeRepublishQueue(db: Queryable): Promise<WebhookRow[]> {
  const { rows: taken } = await db.query<{ webhook_id: string }>("DELETE FROM webhooks.republish RETURNING webhook_id");
  if (taken.length === 0) return [];
  const { rows } = await db.query<WebhookRow & Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM webhooks.webhooks WHERE id = ANY($1) ORDER BY id FOR UPDATE`,
    [taken.map((t) => t.webhook_id)],
  );
  return rows;
}

/** Queues a webhook whose stored configuration changed behind the use cases' back for publishing on webhooks.v1. */
export async function queueRepublish(tx: Queryable, webhookId: string): Promise<void> {
  await tx.query("INSERT INTO webhooks.republish (webhook_id) VALUES ($1) ON CONFLICT DO NOTHING", [webhookId]);
}
