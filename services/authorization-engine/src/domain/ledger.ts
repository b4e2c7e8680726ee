/**
 * Ledger rules, pure: every movement is a set of balanced entries (they sum to zero), holds reserve funds without
 * moving them, available = posted − held, and an account that must stay funded never goes below zero available.
 * The engine keeps balances in PostgreSQL and applies these rules inside the authorization's transaction.
 */
export type AccountRole =
  /** A business's default account per currency, where its money with the platform sits; programs may spend from it. */
  | "settlement"
  /** An account the business opened (main or sub), for itself or a customer. */
  | "customer"
  /** A card's own account (funding source `card-account`). */
  | "card"
  /**
   * A virtual account: money paid into it lands in its settlement account, so it never holds any (a payment request's
   * pay-in that is sent back passes through it and out again in one transaction).
   */
  | "virtual"
  /** The card network's side: where captured money goes, and reversals come from. Not funded by us. */
  | "network-clearing"
  /** Money entering from outside (pay-ins), and a refused pay-in going back out to its payer. Not funded by us. */
  | "external"
  /** The other side of both legs of a currency conversion, one per currency: the platform's FX position. */
  | "fx-conversion"
  /** Where provisional dispute credits come from, and a won dispute's chargeback goes back to, one per currency. */
  | "disputes";

export interface Balance {
  posted: number;
  held: number;
}

export interface Entry {
  account: string;
  /** Minor units; positive credits the account, negative debits it. */
  amount: number;
}

export class LedgerError extends Error {
  constructor(
    readonly code: "unbalanced" | "insufficient-funds" | "invalid-amount" | "hold-exceeded" | "balance-limit",
    message: string,
  ) {
    super(message);
    this.name = "LedgerError";
  }
}

export const available = (b: Balance) => b.posted - b.held;

/**
 * The most an account may hold (minor units): 10^15, so that any sum of a few balances stays an exact integer in a
 * JavaScript number (2^53 ≈ 9·10^15) and in every report that adds them up.
 */
export const MAX_BALANCE = 1_000_000_000_000_000;

/** Accounts that must never be spent below zero; the system accounts (clearing, external, FX, disputes) are not. */
export const mustStayFunded = (role: AccountRole) =>
  role !== "network-clearing" && role !== "external" && role !== "fx-conversion" && role !== "disputes";

function positive(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0)
    throw new LedgerError("invalid-amount", `amount must be a positive integer of minor units, not ${amount}`);
}

/** Money moves from one account to another: two entries that sum to zero. */
export function transfer(from: string, to: string, amount: number): Entry[] {
  positive(amount);
  return [
    { account: from, amount: -amount },
    { account: to, amount },
  ];
}

export interface LedgerAccount {
  role: AccountRole;
  balance: Balance;
}

/** Reserves funds: available drops, posted stays. */
export function hold(account: LedgerAccount, amount: number): Balance {
  positive(amount);
  if (mustStayFunded(account.role) && available(account.balance) < amount) {
    throw new LedgerError(
      "insufficient-funds",
      `insufficient funds: available ${available(account.balance)} is less than ${amount}`,
    );
  }
  return { ...account.balance, held: account.balance.held + amount };
}

/** Gives reserved funds back to available. */
export function release(account: LedgerAccount, amount: number): Balance {
  positive(amount);
  if (amount > account.balance.held)
    throw new LedgerError("hold-exceeded", `cannot release ${amount}: only ${account.balance.held} held`);
  return { ...account.balance, held: account.balance.held - amount };
}

/**
 * Posts balanced entries. `releasing` is the part of a hold the movement settles (a captured hold): it is released
 * in the same step, so the funds are never counted twice. Returns the new balances of the touched accounts.
 */
export function post(
  accounts: Map<string, LedgerAccount>,
  entries: Entry[],
  releasing: { account: string; amount: number } | null = null,
): Map<string, Balance> {
  if (entries.reduce((sum, e) => sum + e.amount, 0) !== 0)
    throw new LedgerError("unbalanced", "entries must sum to zero");
  const next = new Map<string, Balance>();
  const get = (id: string) => {
    const account = accounts.get(id);
    if (!account) throw new LedgerError("invalid-amount", `unknown account ${id}`);
    return next.get(id) ?? account.balance;
  };
  if (releasing)
    next.set(
      releasing.account,
      release({ ...accounts.get(releasing.account)!, balance: get(releasing.account) }, releasing.amount),
    );
  for (const e of entries) {
    if (!Number.isSafeInteger(e.amount))
      throw new LedgerError("invalid-amount", `entry amount ${e.amount} is not an integer`);
    const balance = get(e.account);
    next.set(e.account, { ...balance, posted: balance.posted + e.amount });
  }
  for (const [id, balance] of next) {
    if (mustStayFunded(accounts.get(id)!.role) && available(balance) < 0) {
      throw new LedgerError(
        "insufficient-funds",
        `insufficient funds: account ${id} would have ${available(balance)} available`,
      );
    }
    if (mustStayFunded(accounts.get(id)!.role) && balance.posted > MAX_BALANCE) {
      throw new LedgerError(
        "balance-limit",
        `account ${id} would hold ${balance.posted}, more than the limit of ${MAX_BALANCE} minor units`,
      );
    }
  }
  return next;
}
