/**
 * Cards by their PAN's keyed hash (migration 012): how the ISO 8583 interface finds the card of a message. The one
 * read not scoped by business and mode: the PAN is what says which business and mode a card belongs to.
 */
import type { Queryable } from "@cardhold/db";
import type { Mode } from "@cardhold/contracts";
import type { CardStatus } from "../domain/card-status";
import type { NetworkMessageKey } from "./network-messages.store";

/** What a network message needs of its card before the engine is asked. */
export interface PanCard {
  id: string;
  business_id: string;
  mode: Mode;
  status: CardStatus;
  expiry: string;
  currency: string;
  cvv_encrypted: string;
}

/** A card found by its PAN, with the answer its business and mode gave the message before (null: not a repeat). */
export type PanCardWithAnswer<Answer> = PanCard & { earlier_answer: Answer | null };

/** The cards with this PAN hash; for each, the answer already given to the message `key` names (one round trip). */
export async function findCardsByPanHash<Answer>(
  db: Queryable,
  panHash: string,
  key: NetworkMessageKey,
): Promise<Array<PanCardWithAnswer<Answer>>> {
  const { rows } = await db.query<PanCardWithAnswer<Answer> & Record<string, unknown>>(
    `SELECT c.id, c.business_id, c.mode, c.status, c.expiry, c.currency, c.cvv_encrypted,
            (SELECT m.response FROM engine.network_messages m
              WHERE m.business_id = c.business_id AND m.mode = c.mode AND m.message_class = $2
                AND m.terminal_id = $3 AND m.rrn = $4 AND m.stan = $5) AS earlier_answer
       FROM engine.cards c WHERE c.pan_hash = $1`,
    [panHash, key.messageClass, key.terminalId, key.rrn, key.stan],
  );
  return rows;
}

/** Up to `limit` cards from before PAN hashes (or issued by an engine without them), with their sealed PANs. */
export async function findCardsWithoutPanHash(
  db: Queryable,
  limit: number,
): Promise<Array<{ id: string; pan_encrypted: string }>> {
  const { rows } = await db.query<{ id: string; pan_encrypted: string }>(
    "SELECT id, pan_encrypted FROM engine.cards WHERE pan_hash IS NULL ORDER BY id LIMIT $1",
    [limit],
  );
  return rows;
}

export async function setPanHashes(db: Queryable, hashes: Array<{ id: string; panHash: string }>): Promise<void> {
  if (hashes.length === 0) return;
  await db.query(
    `UPDATE engine.cards c SET pan_hash = h.pan_hash
       FROM jsonb_to_recordset($1::jsonb) AS h(id text, pan_hash text)
      WHERE c.id = h.id AND c.pan_hash IS NULL`,
    [JSON.stringify(hashes.map((h) => ({ id: h.id, pan_hash: h.panHash })))],
  );
}
