import { randomInt } from "node:crypto";
import type { Queryable } from "@cardhold/db";
import { newId } from "@cardhold/platform";
import { scopedResource, type Scope } from "@cardhold/query";
import type { AccountRole } from "../domain/ledger";

export const SCHEMA = "engine";

export interface AccountRow {
  id: string;
  business_id: string;
  mode: string;
  role: AccountRole;
  type: "main" | "sub" | "virtual" | "system";
  name: string;
  currency: string;
  customer_id: string | null;
  reference: string | null;
  settlement_account_id: string | null;
  status: string;
  deposit_account_number: string | null;
  deposit_channels: DepositChannel[];
  metadata: Record<string, unknown>;
  posted: number;
  held: number;
  created_at: Date;
  updated_at: Date;
}

/** The accounts list as the query language sees it (system accounts are not in the view). */
export const accountResource = scopedResource(
  "account",
  "engine.business_accounts",
  {
    id: { type: "id", column: "id", sortable: true },
    name: { type: "string", column: "name", sortable: true },
    type: { type: "string", column: "type", sortable: true },
    currency: { type: "string", column: "currency", sortable: true },
    customer: { type: "id", column: "customer_id" },
    reference: { type: "string", column: "reference" },
    status: { type: "string", column: "status", sortable: true },
    settlementAccount: { type: "id", column: "settlement_account_id" },
    metadata: { type: "object", column: "metadata" },
    createdAt: { type: "date", column: "created_at", sortable: true },
    updatedAt: { type: "date", column: "updated_at", sortable: true },
  },
  { relations: { customer: "customer", settlementAccount: "account" } },
);

export type NewAccount = Pick<AccountRow, "role" | "type" | "name" | "currency"> &
  Partial<Pick<AccountRow, "customer_id" | "reference" | "settlement_account_id" | "metadata">> & {
    depositChannel?: boolean;
  };

/** The bank every deposit channel is at: the sandbox bank (code 000, as the original interface's sandbox shows). */
const BANK = { bankName: "Cardhold Sandbox Bank", bankCode: "000", partner: "cardhold-sandbox" };
const ACCOUNT_NUMBER_TRIES = 5;

/** A fresh 10-digit NUBAN-style number; uniqueness is the database's (a collision is retried). */
const accountNumber = () => String(randomInt(1_000_000_000, 10_000_000_000));

/** A deposit channel as account records show it. */
export interface DepositChannel {
  type: "bank-account";
  accountName: string;
  accountNumber: string;
  bankName: string;
  bankCode: string;
  partner: string;
  createdAt: string;
  updatedAt: string;
}

export function newDepositChannel(accountName: string, number: string, at: Date): DepositChannel {
  const stamp = at.toISOString();
  return { type: "bank-account", accountName, accountNumber: number, ...BANK, createdAt: stamp, updatedAt: stamp };
}

/**
 * Inserts an account; with a deposit channel it gets a unique 10-digit account number to receive pay-ins. The number is
 * claimed in engine.deposit_account_numbers in the same statement, and the account is inserted only if the claim
 * succeeded: a taken number is skipped (ON CONFLICT), not an error, so this works inside a transaction.
 * `onePerCurrency` makes the insert a no-op (undefined) when the business already has this role's account in the
 * currency.
 */
export async function insertAccount(
  db: Queryable,
  scope: Scope,
  a: NewAccount,
  onePerCurrency = false,
): Promise<AccountRow | undefined> {
  const conflict = onePerCurrency
    ? "ON CONFLICT (business_id, mode, currency, role) WHERE role IN ('settlement', 'network-clearing', 'external', 'fx-conversion', 'disputes') DO NOTHING"
    : "";
  for (let attempt = 1; attempt <= ACCOUNT_NUMBER_TRIES; attempt++) {
    const id = newId("account");
    const at = new Date();
    const number = a.depositChannel ? accountNumber() : null;
    const channels = number ? [newDepositChannel(a.name, number, at)] : [];
    const { rows } = await db.query<AccountRow & Record<string, unknown>>(
      `WITH claimed AS (
         INSERT INTO engine.deposit_account_numbers (account_number, account_id, business_id, mode)
         SELECT $11::text, $1::text, $2::text, $3::text WHERE $11::text IS NOT NULL
         ON CONFLICT DO NOTHING RETURNING account_number)
       INSERT INTO engine.accounts (id, business_id, mode, role, type, name, currency, customer_id, reference,
         settlement_account_id, deposit_account_number, deposit_channels, metadata, created_at, updated_at)
       SELECT $1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::text, $8::text, $9::text, $10::text,
              $11::text, $12::jsonb, $13::jsonb, $14::timestamptz, $14::timestamptz
        WHERE $11::text IS NULL OR EXISTS (SELECT 1 FROM claimed)
       ${conflict} RETURNING *`,
      [
        id,
        scope.businessId,
        scope.mode,
        a.role,
        a.type,
        a.name,
        a.currency,
        a.customer_id ?? null,
        a.reference ?? null,
        a.settlement_account_id ?? null,
        number,
        JSON.stringify(channels),
        a.metadata ?? {},
        at,
      ],
    );
    if (rows[0]) return rows[0];
    if (onePerCurrency) {
      // The business's account of this role was made meanwhile: give back the number claimed for this one.
      if (number) await db.query("DELETE FROM engine.deposit_account_numbers WHERE account_number = $1", [number]);
      return undefined;
    }
  }
  throw new Error(`no free deposit account number after ${ACCOUNT_NUMBER_TRIES} tries`);
}

/** Adds a deposit channel with a fresh number to an account the caller locked; answers the updated account row. */
export async function addDepositChannel(
  db: Queryable,
  scope: Scope,
  account: Pick<AccountRow, "id" | "name">,
): Promise<AccountRow> {
  for (let attempt = 1; attempt <= ACCOUNT_NUMBER_TRIES; attempt++) {
    const number = accountNumber();
    const claimed = await db.query(
      `INSERT INTO engine.deposit_account_numbers (account_number, account_id, business_id, mode)
       VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
      [number, account.id, scope.businessId, scope.mode],
    );
    if (claimed.rowCount !== 1) continue;
    const channel = newDepositChannel(account.name, number, new Date());
    const { rows } = await db.query<AccountRow & Record<string, unknown>>(
      `UPDATE engine.accounts SET deposit_channels = deposit_channels || $4::jsonb, updated_at = now()
        WHERE id = $1 AND business_id = $2 AND mode = $3 RETURNING *`,
      [account.id, scope.businessId, scope.mode, JSON.stringify([channel])],
    );
    return rows[0]!;
  }
  throw new Error(`no free deposit account number after ${ACCOUNT_NUMBER_TRIES} tries`);
}

/** Replaces the deposit channels of an account the caller locked; answers the updated account row. */
export async function replaceDepositChannels(
  db: Queryable,
  scope: Scope,
  accountId: string,
  channels: DepositChannel[],
): Promise<AccountRow> {
  const { rows } = await db.query<AccountRow & Record<string, unknown>>(
    `UPDATE engine.accounts SET deposit_channels = $4::jsonb, updated_at = now()
      WHERE id = $1 AND business_id = $2 AND mode = $3 RETURNING *`,
    [accountId, scope.businessId, scope.mode, JSON.stringify(channels)],
  );
  return rows[0]!;
}

export async function findAccount(db: Queryable, scope: Scope, id: string): Promise<AccountRow | undefined> {
  const { rows } = await db.query<AccountRow & Record<string, unknown>>(
    `SELECT * FROM engine.business_accounts WHERE id = $1 AND business_id = $2 AND mode = $3`,
    [id, scope.businessId, scope.mode],
  );
  return rows[0];
}

export async function findAccountsByIds(db: Queryable, scope: Scope, ids: string[]): Promise<AccountRow[]> {
  const { rows } = await db.query<AccountRow & Record<string, unknown>>(
    `SELECT * FROM engine.business_accounts WHERE id = ANY($1::text[]) AND business_id = $2 AND mode = $3`,
    [ids, scope.businessId, scope.mode],
  );
  return rows;
}

export async function findAccountByNumber(
  db: Queryable,
  scope: Scope,
  number: string,
): Promise<AccountRow | undefined> {
  const { rows } = await db.query<AccountRow & Record<string, unknown>>(
    `SELECT a.* FROM engine.deposit_account_numbers n JOIN engine.business_accounts a ON a.id = n.account_id
      WHERE n.account_number = $1 AND n.business_id = $2 AND n.mode = $3`,
    [number, scope.businessId, scope.mode],
  );
  return rows[0];
}

export async function findReferencedAccount(
  db: Queryable,
  scope: Scope,
  reference: string,
): Promise<AccountRow | undefined> {
  const { rows } = await db.query<AccountRow & Record<string, unknown>>(
    `SELECT * FROM engine.business_accounts WHERE reference = $1 AND business_id = $2 AND mode = $3`,
    [reference, scope.businessId, scope.mode],
  );
  return rows[0];
}

/** The system account of a role (clearing, external, FX, disputes) for a currency, created on first use. */
export async function systemAccount(
  db: Queryable,
  scope: Scope,
  role: "network-clearing" | "external" | "fx-conversion" | "disputes",
  currency: string,
): Promise<string> {
  return oneAccountPerCurrency(db, scope, { role, type: "system", name: `${role} (${currency})`, currency });
}

/** The business's default (settlement) account in a currency, created on first use with a deposit channel. */
export async function settlementAccount(db: Queryable, scope: Scope, currency: string): Promise<string> {
  return oneAccountPerCurrency(db, scope, {
    role: "settlement",
    type: "main",
    name: `Settlement account (${currency})`,
    currency,
    depositChannel: true,
  });
}

/**
 * Ids of the one-per-currency accounts found committed: they never change or go away, so a capture need not look its
 * clearing account up again. A row the current transaction inserted is not cached (it may roll back). Bounded by
 * businesses × modes × currencies × roles.
 */
const knownAccounts = new Map<string, string>();

async function oneAccountPerCurrency(db: Queryable, scope: Scope, a: NewAccount): Promise<string> {
  const cacheKey = `${scope.businessId}:${scope.mode}:${a.currency}:${a.role}`;
  const known = knownAccounts.get(cacheKey);
  if (known) return known;
  const find = async () => {
    const { rows } = await db.query<{ id: string; ours: boolean | null }>(
      `SELECT id, xmin = pg_current_xact_id_if_assigned()::xid AS ours FROM engine.accounts
        WHERE business_id = $1 AND mode = $2 AND currency = $3 AND role = $4`,
      [scope.businessId, scope.mode, a.currency, a.role],
    );
    if (rows[0] && rows[0].ours !== true) knownAccounts.set(cacheKey, rows[0].id); // not this open transaction's own row
    return rows[0]?.id;
  };
  // Created at the same moment by another transaction: the insert does nothing and that one is found.
  return (await find()) ?? (await insertAccount(db, scope, a, true))?.id ?? (await find())!;
}

/** An account row read as jsonb (to_jsonb(a)) inside another row: its timestamps back to dates. */
export function accountFromJson(json: Record<string, unknown>): AccountRow {
  const row = json as unknown as AccountRow;
  // jsonb carries bigint balances as JSON numbers: refuse what a JS number cannot hold exactly, as the int8 parser does.
  for (const amount of [row.posted, row.held]) {
    if (!Number.isSafeInteger(amount))
      throw new RangeError(`account ${row.id}: balance ${amount} exceeds the safe integer range`);
  }
  return { ...row, created_at: new Date(json.created_at as string), updated_at: new Date(json.updated_at as string) };
}

/** Locks the rows of the given accounts (in id order, so concurrent transactions cannot deadlock on them). */
export async function lockAccounts(db: Queryable, ids: string[]): Promise<Map<string, AccountRow>> {
  const { rows } = await db.query<AccountRow & Record<string, unknown>>(
    `SELECT * FROM engine.accounts WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE`,
    [[...new Set(ids)]],
  );
  return new Map(rows.map((r) => [r.id, r]));
}

export async function setAccountBalance(db: Queryable, id: string, posted: number, held: number): Promise<void> {
  await db.query("UPDATE engine.accounts SET posted = $2, held = $3, updated_at = now() WHERE id = $1", [
    id,
    posted,
    held,
  ]);
}

/** Closes an account: it takes no more pay-ins of its own (a payment request's, once paid). */
export async function closeAccount(db: Queryable, scope: Scope, id: string): Promise<void> {
  await db.query(
    "UPDATE engine.accounts SET status = 'closed', updated_at = now() WHERE id = $1 AND business_id = $2 AND mode = $3",
    [id, scope.businessId, scope.mode],
  );
}

/** Whether a pay-in with this sender's reference was credited already (a repeated pay-in credits nothing more). */
export async function isPaidIn(db: Queryable, scope: Scope, reference: string): Promise<boolean> {
  const { rowCount } = await db.query(
    "SELECT 1 FROM engine.pay_ins WHERE business_id = $1 AND mode = $2 AND reference = $3",
    [scope.businessId, scope.mode, reference],
  );
  return (rowCount ?? 0) > 0;
}

/** Records the sender's reference of a pay-in credited by `movementId`; a second one with it is a unique violation. */
export async function recordPayIn(db: Queryable, scope: Scope, reference: string, movementId: string): Promise<void> {
  await db.query("INSERT INTO engine.pay_ins (business_id, mode, reference, movement_id) VALUES ($1, $2, $3, $4)", [
    scope.businessId,
    scope.mode,
    reference,
    movementId,
  ]);
}
