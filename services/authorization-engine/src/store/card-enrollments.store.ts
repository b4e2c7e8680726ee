import type { CardEnrollmentType } from "@cardhold/contracts";
import type { Queryable } from "@cardhold/db";
import type { Scope } from "@cardhold/query";

/** A card's enrolment for one-time passwords online (migration 006). */
export interface CardEnrollmentRow {
  card_id: string;
  type: CardEnrollmentType;
  phone_number: string | null;
  email: string | null;
  status: "enrolled";
  created_at: Date;
  updated_at: Date;
}

export type NewCardEnrollment = Pick<CardEnrollmentRow, "card_id" | "type" | "phone_number" | "email">;

const COLUMNS = "card_id, type, phone_number, email, status, created_at, updated_at";

/**
 * Enrols the card, or replaces the contact details of its enrolment of this type; `created`: it was not enrolled. The
 * caller has found the card in `scope` (card ids are unique across businesses).
 */
export async function upsertCardEnrollment(
  db: Queryable,
  scope: Scope,
  e: NewCardEnrollment,
): Promise<{ row: CardEnrollmentRow; created: boolean }> {
  const { rows } = await db.query<CardEnrollmentRow & { created: boolean } & Record<string, unknown>>(
    `INSERT INTO engine.card_enrollments (card_id, type, business_id, mode, phone_number, email, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'enrolled', now(), now())
     ON CONFLICT (card_id, type) DO UPDATE
       SET phone_number = EXCLUDED.phone_number, email = EXCLUDED.email, updated_at = EXCLUDED.updated_at
     RETURNING ${COLUMNS}, (xmax = 0) AS created`,
    [e.card_id, e.type, scope.businessId, scope.mode, e.phone_number, e.email],
  );
  const { created, ...row } = rows[0]!;
  return { row, created };
}

export async function findCardEnrollments(db: Queryable, scope: Scope, cardId: string): Promise<CardEnrollmentRow[]> {
  const { rows } = await db.query<CardEnrollmentRow & Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM engine.card_enrollments WHERE card_id = $1 AND business_id = $2 AND mode = $3
      ORDER BY created_at, type`,
    [cardId, scope.businessId, scope.mode],
  );
  return rows;
}
