import type { Queryable } from "@cardhold/db";
import type { Scope } from "@cardhold/query";

/** A card printed for a physical program and not linked to a holder yet (migration 006). */
export interface PrintedCardRow {
  id: string;
  program_id: string;
  last4: string;
  expiry: string;
  pan_encrypted: string;
  cvv_encrypted: string;
  printed_at: Date;
}

export type NewPrintedCard = Pick<PrintedCardRow, "id" | "last4" | "expiry" | "pan_encrypted" | "cvv_encrypted">;

/** How many cards the program has had printed, with the program row locked so that two prints count one after the other. */
export async function countPrintedCardsLocked(db: Queryable, scope: Scope, programId: string): Promise<number> {
  await db.query("SELECT 1 FROM engine.card_programs WHERE id = $1 AND business_id = $2 AND mode = $3 FOR UPDATE", [
    programId,
    scope.businessId,
    scope.mode,
  ]);
  const { rows } = await db.query<{ count: number }>(
    "SELECT count(*)::int AS count FROM engine.printed_cards WHERE program_id = $1 AND business_id = $2 AND mode = $3",
    [programId, scope.businessId, scope.mode],
  );
  return rows[0]!.count;
}

export async function insertPrintedCards(
  db: Queryable,
  scope: Scope,
  programId: string,
  cards: NewPrintedCard[],
): Promise<void> {
  await db.query(
    `INSERT INTO engine.printed_cards (id, business_id, mode, program_id, last4, expiry, pan_encrypted, cvv_encrypted, printed_at)
     SELECT c.id, $1, $2, $3, c.last4, c.expiry, c.pan_encrypted, c.cvv_encrypted, now()
       FROM jsonb_to_recordset($4::jsonb) AS c(id text, last4 text, expiry text, pan_encrypted text, cvv_encrypted text)`,
    [scope.businessId, scope.mode, programId, JSON.stringify(cards)],
  );
}

/** A printed card still waiting for its holder, locked for linking; undefined when there is none (or it is linked). */
export async function findUnlinkedPrintedCard(
  db: Queryable,
  scope: Scope,
  id: string,
): Promise<PrintedCardRow | undefined> {
  const { rows } = await db.query<PrintedCardRow & Record<string, unknown>>(
    `SELECT id, program_id, last4, expiry, pan_encrypted, cvv_encrypted, printed_at FROM engine.printed_cards
      WHERE id = $1 AND business_id = $2 AND mode = $3 AND linked_at IS NULL FOR UPDATE`,
    [id, scope.businessId, scope.mode],
  );
  return rows[0];
}

/** The card is a customer's now: its secrets live on the card alone. */
export async function markPrintedCardLinked(db: Queryable, scope: Scope, id: string): Promise<void> {
  await db.query(
    `UPDATE engine.printed_cards SET linked_at = now(), pan_encrypted = NULL, cvv_encrypted = NULL
      WHERE id = $1 AND business_id = $2 AND mode = $3`,
    [id, scope.businessId, scope.mode],
  );
}
