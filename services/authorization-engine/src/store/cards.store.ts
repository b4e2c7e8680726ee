import type { Queryable } from "@cardhold/db";
import { scopedResource, type Scope } from "@cardhold/query";
import type { SpendingControls } from "../domain/pre-checks";
import { accountFromJson, type AccountRow } from "./accounts.store";
import { transactionFeeTerms, type ProgramRow } from "./programs.store";
import type { FeeTerms } from "../domain/fees";
import type { StandIn } from "../domain/stand-in";

import type { CardStatus } from "../domain/card-status";

export interface CardRow {
  id: string;
  program_id: string;
  customer_id: string;
  reference: string;
  type: "virtual" | "physical";
  network: "verve" | "mastercard";
  currency: string;
  status: CardStatus;
  funding_account_id: string;
  card_holder_name: string;
  last4: string;
  expiry: string;
  pan_encrypted: string;
  cvv_encrypted: string;
  /** The PAN's keyed hash (CardVault.panHash), the network interface's way to the card; null on cards not hashed yet. */
  pan_hash: string | null;
  pin_hash: string | null;
  controls: SpendingControls;
  metadata: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

export const cardResource = scopedResource(
  "card",
  "engine.cards",
  {
    id: { type: "id", column: "id", sortable: true },
    program: { type: "id", column: "program_id" },
    customer: { type: "id", column: "customer_id" },
    reference: { type: "string", column: "reference", sortable: true },
    type: { type: "string", column: "type", sortable: true },
    network: { type: "string", column: "network", sortable: true },
    currency: { type: "string", column: "currency", sortable: true },
    status: { type: "string", column: "status", sortable: true },
    fundingSource: { type: "id", column: "funding_account_id" },
    metadata: { type: "object", column: "metadata" },
    createdAt: { type: "date", column: "created_at", sortable: true },
    updatedAt: { type: "date", column: "updated_at", sortable: true },
  },
  { relations: { program: "program", customer: "customer", fundingSource: "account" } },
);

export type NewCard = Omit<CardRow, "status" | "pin_hash" | "created_at" | "updated_at">;

export async function insertCard(db: Queryable, scope: Scope, c: NewCard): Promise<CardRow> {
  const { rows } = await db.query<CardRow & Record<string, unknown>>(
    `INSERT INTO engine.cards (id, business_id, mode, program_id, customer_id, reference, type, network, currency, status,
       funding_account_id, card_holder_name, last4, expiry, pan_encrypted, cvv_encrypted, controls, metadata, created_at, updated_at,
       pan_hash)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'inactive', $10, $11, $12, $13, $14, $15, $16, $17, now(), now(), $18)
     RETURNING *`,
    [
      c.id,
      scope.businessId,
      scope.mode,
      c.program_id,
      c.customer_id,
      c.reference,
      c.type,
      c.network,
      c.currency,
      c.funding_account_id,
      c.card_holder_name,
      c.last4,
      c.expiry,
      c.pan_encrypted,
      c.cvv_encrypted,
      c.controls,
      c.metadata,
      c.pan_hash,
    ],
  );
  return rows[0]!;
}

export async function findCard(db: Queryable, scope: Scope, id: string, lock = false): Promise<CardRow | undefined> {
  const { rows } = await db.query<CardRow & Record<string, unknown>>(
    `SELECT * FROM engine.cards WHERE id = $1 AND business_id = $2 AND mode = $3${lock ? " FOR UPDATE" : ""}`,
    [id, scope.businessId, scope.mode],
  );
  return rows[0];
}

export async function findCardsByIds(db: Queryable, scope: Scope, ids: string[]): Promise<CardRow[]> {
  const { rows } = await db.query<CardRow & Record<string, unknown>>(
    "SELECT * FROM engine.cards WHERE id = ANY($1::text[]) AND business_id = $2 AND mode = $3",
    [ids, scope.businessId, scope.mode],
  );
  return rows;
}

export type CardChange = Partial<Pick<CardRow, "status" | "pin_hash" | "controls" | "metadata">>;

export async function updateCard(db: Queryable, scope: Scope, id: string, change: CardChange): Promise<CardRow> {
  const columns = Object.keys(change) as Array<keyof CardChange>;
  const sets = columns.map((c, i) => `${c} = $${i + 4}`).join(", ");
  const { rows } = await db.query<CardRow & Record<string, unknown>>(
    `UPDATE engine.cards SET ${sets}, updated_at = now() WHERE id = $1 AND business_id = $2 AND mode = $3 RETURNING *`,
    [id, scope.businessId, scope.mode, ...columns.map((c) => change[c])],
  );
  return rows[0]!;
}

/** What an authorization request needs to know of its card, the card's program and customer: one round trip. */
export interface AuthorizationSubject {
  card: Pick<
    CardRow,
    | "id"
    | "status"
    | "network"
    | "currency"
    | "customer_id"
    | "funding_account_id"
    | "program_id"
    | "controls"
    | "card_holder_name"
  >;
  program: Pick<ProgramRow, "id" | "settlement_account_id" | "webhook_id" | "timeout_default" | "stand_in"> & {
    /** What the program charges on each capture. */
    transaction_fee_terms: FeeTerms;
  };
  /** The customer's status in this service's projection; null when the projection does not know the customer. */
  customerStatus: string | null;
  /** What an unanswered request becomes: the program's own setting, else its decision webhook's, else null. */
  timeoutDefault: "approve" | "decline" | null;
  /** The stand-in rules of the webhook that decides the card's captures (null: none); the program's win. */
  webhookStandIn: StandIn | null;
  /** The card's funding account, locked (FOR UPDATE) by the read. */
  fundingAccount: AccountRow;
}

/**
 * The webhook that receives the card's card.authorization.request (interface Rule 8: an enabled webhook naming the
 * kind, else the default one), or the program's own webhook when it names one: its timeoutDefault and stand-in rules.
 */
const DECISION_WEBHOOK = `
  LEFT JOIN LATERAL (
    SELECT w.timeout_default, w.stand_in FROM engine.webhooks w
     WHERE w.business_id = c.business_id AND w.mode = c.mode AND (
       CASE WHEN p.webhook_id IS NOT NULL THEN w.id = p.webhook_id
            ELSE (w.status = 'enabled' AND NOT w.is_default AND w.events ? 'card.authorization.request') OR w.is_default END)
     ORDER BY w.is_default LIMIT 1) dw ON true`;

/** The card, its program and customer, and its funding account locked: what an authorization request needs. */
export async function findAuthorizationSubject(
  db: Queryable,
  scope: Scope,
  cardId: string,
): Promise<AuthorizationSubject | undefined> {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT c.id, c.status, c.network, c.currency, c.customer_id, c.funding_account_id, c.program_id, c.controls,
            c.card_holder_name, p.transaction_fee, p.transaction_fee_structure, p.transaction_fee_value, p.transaction_fee_cap,
            p.settlement_account_id, p.webhook_id, p.timeout_default, p.stand_in, cu.status AS customer_status,
            COALESCE(p.timeout_default, dw.timeout_default) AS effective_timeout_default,
            dw.stand_in AS webhook_stand_in, to_jsonb(a) AS funding_account
       FROM engine.cards c
       JOIN engine.card_programs p ON p.id = c.program_id
       JOIN engine.accounts a ON a.id = c.funding_account_id
       LEFT JOIN engine.customers cu ON cu.id = c.customer_id ${DECISION_WEBHOOK}
      WHERE c.id = $1 AND c.business_id = $2 AND c.mode = $3
      FOR UPDATE OF a`,
    [cardId, scope.businessId, scope.mode],
  );
  const r = rows[0];
  if (!r) return undefined;
  return {
    card: {
      id: r.id as string,
      status: r.status as CardStatus,
      network: r.network as CardRow["network"],
      currency: r.currency as string,
      customer_id: r.customer_id as string,
      funding_account_id: r.funding_account_id as string,
      program_id: r.program_id as string,
      controls: r.controls as SpendingControls,
      card_holder_name: r.card_holder_name as string,
    },
    program: {
      id: r.program_id as string,
      transaction_fee_terms: transactionFeeTerms(r as Parameters<typeof transactionFeeTerms>[0]),
      settlement_account_id: r.settlement_account_id as string,
      webhook_id: r.webhook_id as string | null,
      timeout_default: r.timeout_default as ProgramRow["timeout_default"],
      stand_in: (r.stand_in as ProgramRow["stand_in"]) ?? null,
    },
    customerStatus: (r.customer_status as string | null) ?? null,
    timeoutDefault: (r.effective_timeout_default as AuthorizationSubject["timeoutDefault"]) ?? null,
    webhookStandIn: (r.webhook_stand_in as StandIn | null) ?? null,
    fundingAccount: accountFromJson(r.funding_account as Record<string, unknown>),
  };
}
