import type { Queryable } from "@cardhold/db";

/** A row of bills.sandbox_transfers: the sandbox bank rail's own book of transfers (global: a rail knows no businesses). */
export interface SandboxTransferRow {
  reference: string;
  bank_code: string;
  account_number: string;
  account_name: string;
  amount: number;
  currency: string;
  narration: string;
  outcome: "successful" | "failed";
  failure_reason: string | null;
  session_id: string;
  /** Until then the transfer is pending; null when it was final at once. */
  resolves_at: Date | null;
  /** How many times the rail was asked to send it. */
  sends: number;
  created_at: Date;
}

export type NewSandboxTransfer = Omit<SandboxTransferRow, "resolves_at" | "sends" | "created_at"> & {
  pendingMs: number | null;
};

const COLUMNS = `reference, bank_code, account_number, account_name, amount, currency, narration, outcome, failure_reason,
  session_id, resolves_at, sends, created_at`;

/** Books the transfer, or counts one more ask to send a transfer already booked (which changes nothing else). */
export async function bookSandboxTransfer(db: Queryable, t: NewSandboxTransfer): Promise<void> {
  await db.query(
    `INSERT INTO bills.sandbox_transfers
       (reference, bank_code, account_number, account_name, amount, currency, narration, outcome, failure_reason,
        session_id, resolves_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10,
             CASE WHEN $11::int IS NULL THEN NULL ELSE now() + $11::int * interval '1 millisecond' END)
     ON CONFLICT (reference) DO UPDATE SET sends = bills.sandbox_transfers.sends + 1`,
    [
      t.reference,
      t.bank_code,
      t.account_number,
      t.account_name,
      t.amount,
      t.currency,
      t.narration,
      t.outcome,
      t.failure_reason,
      t.session_id,
      t.pendingMs,
    ],
  );
}

/** The transfer as booked, with the database's clock (a pending transfer resolves by it). */
export async function findSandboxTransfer(
  db: Queryable,
  reference: string,
): Promise<{ transfer: SandboxTransferRow; now: Date } | undefined> {
  const { rows } = await db.query<SandboxTransferRow & { now: Date } & Record<string, unknown>>(
    `SELECT ${COLUMNS}, now() AS now FROM bills.sandbox_transfers WHERE reference = $1`,
    [reference],
  );
  const row = rows[0];
  if (!row) return undefined;
  const { now, ...transfer } = row;
  return { transfer, now };
}
