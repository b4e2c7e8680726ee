import type { Queryable, Write, WriteBatch } from "@cardhold/db";
import { newId } from "@cardhold/platform";
import { scopedResource, type Scope } from "@cardhold/query";
import { available, hold, post, release, transfer, type Balance, type LedgerAccount } from "../domain/ledger";
import type { LedgerEntryRow } from "../accounts/account-records";
import { lockAccounts, setAccountBalance, type AccountRow } from "./accounts.store";

export interface Movement {
  kind:
    | "pay-in"
    | "pay-in-refund"
    | "card-funding"
    | "capture"
    | "refund"
    | "reversal"
    | "bill-debit"
    | "bill-refund"
    | "dispute-credit"
    | "dispute-credit-reversal"
    | "chargeback";
  reference: string;
  description: string;
  from: string;
  to: string;
  amount: number;
  /** The money moved was held on `from` for this: release that hold in the same step. */
  capturing?: boolean;
  /** Needed only when both sides are system accounts (the ledger knows the currency of the accounts it locked). */
  currency?: string;
}

/**
 * The ledger inside one database transaction. The funded accounts it may touch are locked when it opens (in id
 * order); system accounts (network clearing, external) are never locked and keep no running balance. Every change
 * goes through the pure rules of domain/ledger.ts and is written at once.
 */
export interface Ledger {
  account(id: string): AccountRow;
  balance(id: string): Balance & { available: number };
  hold(id: string, amount: number): Promise<void>;
  release(id: string, amount: number): Promise<void>;
  /** Posts a balanced movement; returns its id. */
  move(m: Movement): Promise<string>;
  /** A system account (never locked, no running balance) this ledger may move money to and from from now on. */
  addSystem(id: string): void;
  /** The batch the ledger's writes wait in, when it was opened with one (see settle). */
  writes?: WriteBatch;
  /** Adds the changed accounts' balances to the batch (one write for all); the caller flushes it. */
  settle(): void;
}

const balancesWrite = (balances: Array<{ id: string; posted: number; held: number }>): Write => ({
  text: `UPDATE engine.accounts a SET posted = b.posted, held = b.held, updated_at = now()
           FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS b (id, posted, held) WHERE a.id = b.id`,
  values: [balances.map((b) => b.id), balances.map((b) => b.posted), balances.map((b) => b.held)],
});

/**
 * `lockedAlready`: rows the caller locked (FOR UPDATE) in this transaction, not locked again. With `writes`, nothing
 * is written until the caller settles the ledger and flushes the batch (a transaction's writes
 * in one statement); without, every change is written at once.
 */
export async function openLedger(
  db: Queryable,
  scope: Scope,
  accounts: { funded: string[]; system?: string[]; lockedAlready?: AccountRow[] },
  writes?: WriteBatch,
): Promise<Ledger> {
  const given = new Map((accounts.lockedAlready ?? []).map((a) => [a.id, a]));
  const locked = accounts.funded.every((id) => given.has(id)) ? given : await lockAccounts(db, accounts.funded);
  for (const id of accounts.funded) if (!locked.has(id)) throw new Error(`account ${id} does not exist`);
  const system = new Set(accounts.system ?? []);
  const view = (id: string): LedgerAccount => {
    if (system.has(id)) return { role: "network-clearing", balance: { posted: 0, held: 0 } };
    const row = locked.get(id);
    if (!row) throw new Error(`account ${id} was not opened in this ledger`);
    return { role: row.role, balance: { posted: row.posted, held: row.held } };
  };
  const changed = new Set<string>();
  const store = async (id: string, balance: Balance) => {
    const row = locked.get(id)!;
    locked.set(id, { ...row, posted: balance.posted, held: balance.held });
    if (writes) changed.add(id);
    else await setAccountBalance(db, id, balance.posted, balance.held);
  };
  const write = async (w: Write) => {
    if (writes) writes.defer(w);
    else await db.query(w.text, w.values);
  };

  return {
    account: (id) =>
      locked.get(id) ??
      (() => {
        throw new Error(`account ${id} was not opened in this ledger`);
      })(),
    balance: (id) => {
      const { balance } = view(id);
      return { ...balance, available: available(balance) };
    },
    hold: (id, amount) => store(id, hold(view(id), amount)),
    release: (id, amount) => store(id, release(view(id), amount)),
    async move(m) {
      const entries = transfer(m.from, m.to, m.amount);
      const next = post(
        new Map([
          [m.from, view(m.from)],
          [m.to, view(m.to)],
        ]),
        entries,
        m.capturing ? { account: m.from, amount: m.amount } : null,
      );
      const currency = m.currency ?? (locked.get(m.from) ?? locked.get(m.to))!.currency;
      const movementId = newId("ledgerMovement");
      await write({
        text: `INSERT INTO engine.ledger_movements (id, business_id, mode, kind, reference, description, currency, created_at)
               VALUES ($1, $2, $3, $4, $5, $6, $7, now())`,
        values: [movementId, scope.businessId, scope.mode, m.kind, m.reference, m.description, currency],
      });
      for (const e of entries) if (!system.has(e.account)) await store(e.account, next.get(e.account)!);
      await write({
        text: `INSERT INTO engine.ledger_entries (id, movement_id, business_id, mode, account_id, amount, balance_after, kind,
                 reference, description, currency, created_at)
               SELECT e.id, $1, $2, $3, e.account_id, e.amount, e.balance_after, $4, $5, $6, $7, now()
                 FROM unnest($8::text[], $9::text[], $10::bigint[], $11::bigint[]) WITH ORDINALITY AS e (id, account_id, amount, balance_after, n)
                ORDER BY e.n`,
        values: [
          movementId,
          scope.businessId,
          scope.mode,
          m.kind,
          m.reference,
          m.description,
          currency,
          entries.map(() => newId("ledgerEntry")),
          entries.map((e) => e.account),
          entries.map((e) => e.amount),
          entries.map((e) => (system.has(e.account) ? null : next.get(e.account)!.posted)),
        ],
      });
      return movementId;
    },
    addSystem: (id) => void system.add(id),
    writes,
    settle() {
      if (!writes || changed.size === 0) return;
      writes.defer(
        balancesWrite([...changed].map((id) => ({ id, posted: locked.get(id)!.posted, held: locked.get(id)!.held }))),
      );
      changed.clear();
    },
  };
}

/** An account's log (its ledger entries) as the query language sees it. */
export const ledgerEntryResource = scopedResource("account log entry", "engine.ledger_entries", {
  id: { type: "id", column: "id", sortable: true },
  account: { type: "id", column: "account_id" },
  movement: { type: "id", column: "movement_id" },
  kind: { type: "string", column: "kind", sortable: true },
  amount: { type: "number", column: "amount", sortable: true },
  reference: { type: "string", column: "reference" },
  currency: { type: "string", column: "currency" },
  createdAt: { type: "date", column: "created_at", sortable: true },
});

/** One page of an account's entries, newest first, before the (created_at, id) of the last row of the page before. */
export async function entriesPage(
  db: Queryable,
  scope: Scope,
  accountId: string,
  before: { created_at: Date; id: string } | undefined,
  limit: number,
) {
  const { rows } = await db.query<LedgerEntryRow & Record<string, unknown>>(
    `SELECT id, movement_id, account_id, amount, balance_after, kind, reference, description, currency, created_at
       FROM engine.ledger_entries
      WHERE account_id = $1 AND business_id = $2 AND mode = $3 AND ($4::timestamptz IS NULL OR (created_at, id) < ($4, $5))
      ORDER BY created_at DESC, id DESC LIMIT $6`,
    [accountId, scope.businessId, scope.mode, before?.created_at ?? null, before?.id ?? null, limit],
  );
  return rows;
}
