import type { Queryable } from "@cardhold/db";
import type { Scope } from "@cardhold/query";

/** A row of bills.resolved_bank_accounts. */
export interface ResolvedBankAccountRow {
  bank_code: string;
  account_number: string;
  account_name: string;
  provider: string;
  resolved_at: Date;
}

const COLUMNS = "bank_code, account_number, account_name, provider, resolved_at";

export async function findResolvedBankAccount(
  db: Queryable,
  scope: Scope,
  bankCode: string,
  accountNumber: string,
): Promise<ResolvedBankAccountRow | undefined> {
  const { rows } = await db.query<ResolvedBankAccountRow & Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM bills.resolved_bank_accounts
      WHERE business_id = $1 AND mode = $2 AND bank_code = $3 AND account_number = $4`,
    [scope.businessId, scope.mode, bankCode, accountNumber],
  );
  return rows[0];
}

/** Keeps a resolved name; when another request kept one first, that one stays and is returned. */
export async function rememberResolvedBankAccount(
  db: Queryable,
  scope: Scope,
  resolved: ResolvedBankAccountRow,
): Promise<ResolvedBankAccountRow> {
  const { rows } = await db.query<ResolvedBankAccountRow & Record<string, unknown>>(
    `INSERT INTO bills.resolved_bank_accounts
       (business_id, mode, bank_code, account_number, account_name, provider, resolved_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (business_id, mode, bank_code, account_number) DO NOTHING
     RETURNING ${COLUMNS}`,
    [
      scope.businessId,
      scope.mode,
      resolved.bank_code,
      resolved.account_number,
      resolved.account_name,
      resolved.provider,
      resolved.resolved_at,
    ],
  );
  // A separate statement: it sees the row the conflicting request committed.
  return rows[0] ?? (await findResolvedBankAccount(db, scope, resolved.bank_code, resolved.account_number))!;
}
