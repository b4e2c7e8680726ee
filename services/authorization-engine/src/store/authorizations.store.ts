import { pgErrorCode, PG_UNIQUE_VIOLATION, type Queryable, type Write } from "@cardhold/db";
import { scopedResource, type Scope } from "@cardhold/query";
import type { Authorization } from "../domain/authorization";
import type { LimitInterval } from "../domain/spending-windows";
import type { StandIn, StandInSource } from "../domain/stand-in";
import { accountFromJson, type AccountRow } from "./accounts.store";

export interface AuthorizationRow {
  id: string;
  business_id: string;
  mode: string;
  card_id: string;
  customer_id: string;
  account_id: string;
  settlement_account_id: string;
  program_id: string;
  type: "check" | "capture";
  status: Authorization["status"];
  amount: number;
  /** What the network asked for; null on authorizations from before partial approval (then: amount). */
  requested_amount: number | null;
  partial_approval_allowed: boolean;
  fees: number;
  currency: string;
  channel: string;
  mcc: string | null;
  merchant_id: string | null;
  decision_type: Authorization["decisionType"];
  status_reason: string | null;
  decline_reason: string | null;
  reserved: boolean;
  held: number;
  debited: number;
  pending_amount: number | null;
  pending_fees: number | null;
  decision_due_at: Date | null;
  decision_event_id: string | null;
  timeout_default: Authorization["timeoutDefault"];
  /** The program's own webhook for its authorization events, if it names one. */
  webhook_id: string | null;
  card_balance: number | null;
  card_holder_name: string | null;
  network_reference: string;
  network_data: Record<string, string>;
  metadata: Record<string, unknown>;
  /** The stand-in rules in force when the request came (null: none, the flat timeout default decides). */
  stand_in: StandIn | null;
  /** Whose rules stand_in holds: the program's or the deciding webhook's (null: none; before it was kept: program). */
  stand_in_source: StandInSource | null;
  /** The stand-in rule that decided the capture, if stand-in did. */
  stand_in_rule: string | null;
  created_at: Date;
  updated_at: Date;
  /** When it was first decided (left pending): the end of its decision latency; null until then. */
  decided_at: Date | null;
}

export const authorizationResource = scopedResource(
  "card authorization",
  "engine.authorizations",
  {
    id: { type: "id", column: "id", sortable: true },
    card: { type: "id", column: "card_id" },
    customer: { type: "id", column: "customer_id" },
    account: { type: "id", column: "account_id" },
    program: { type: "id", column: "program_id" },
    type: { type: "string", column: "type", sortable: true },
    status: { type: "string", column: "status", sortable: true },
    amount: { type: "number", column: "amount", sortable: true },
    fees: { type: "number", column: "fees" },
    currency: { type: "string", column: "currency" },
    channel: { type: "string", column: "channel" },
    mcc: { type: "string", column: "mcc" },
    decisionType: { type: "string", column: "decision_type" },
    statusReason: { type: "string", column: "status_reason" },
    declineReason: { type: "string", column: "decline_reason" },
    reserved: { type: "boolean", column: "reserved" },
    networkData: { type: "object", column: "network_data" },
    metadata: { type: "object", column: "metadata" },
    createdAt: { type: "date", column: "created_at", sortable: true },
    updatedAt: { type: "date", column: "updated_at", sortable: true },
  },
  { relations: { card: "card", customer: "customer", account: "account", program: "program" } },
);

/** The state-machine view of a stored authorization. */
export function toDomain(row: AuthorizationRow): Authorization {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    amount: row.amount,
    requestedAmount: row.requested_amount ?? row.amount,
    partialApprovalAllowed: row.partial_approval_allowed,
    fees: row.fees,
    decisionType: row.decision_type,
    statusReason: row.status_reason,
    declineReason: row.decline_reason,
    reserved: row.reserved,
    held: row.held,
    debited: row.debited,
    pendingUpdate: row.pending_amount === null ? null : { amount: row.pending_amount, fees: row.pending_fees ?? 0 },
    decisionDueAt: row.decision_due_at?.getTime() ?? null,
    timeoutDefault: row.timeout_default,
    cardBalance: row.card_balance,
    cardHolderName: row.card_holder_name,
    metadata: row.metadata,
    standInRule: row.stand_in_rule,
  };
}

/** A stored authorization after a transition: the domain's fields written back onto the row. */
export function fromDomain(row: AuthorizationRow, a: Authorization): AuthorizationRow {
  return {
    ...row,
    status: a.status,
    amount: a.amount,
    requested_amount: a.requestedAmount,
    fees: a.fees,
    decision_type: a.decisionType,
    status_reason: a.statusReason,
    decline_reason: a.declineReason,
    reserved: a.reserved,
    held: a.held,
    debited: a.debited,
    pending_amount: a.pendingUpdate?.amount ?? null,
    pending_fees: a.pendingUpdate?.fees ?? null,
    decision_due_at: a.decisionDueAt === null ? null : new Date(a.decisionDueAt),
    card_balance: a.cardBalance,
    card_holder_name: a.cardHolderName,
    metadata: a.metadata,
    stand_in_rule: a.standInRule,
  };
}

const COLUMNS = [
  "id",
  "business_id",
  "mode",
  "card_id",
  "customer_id",
  "account_id",
  "settlement_account_id",
  "program_id",
  "type",
  "status",
  "amount",
  "requested_amount",
  "partial_approval_allowed",
  "fees",
  "currency",
  "channel",
  "mcc",
  "merchant_id",
  "decision_type",
  "status_reason",
  "decline_reason",
  "reserved",
  "held",
  "debited",
  "pending_amount",
  "pending_fees",
  "decision_due_at",
  "decision_event_id",
  "timeout_default",
  "webhook_id",
  "card_balance",
  "card_holder_name",
  "network_reference",
  "network_data",
  "metadata",
  "stand_in",
  "stand_in_source",
  "stand_in_rule",
  "created_at",
  "updated_at",
  "decided_at",
] as const satisfies ReadonlyArray<keyof AuthorizationRow>;

/** Writes a new authorization; a card's network reference taken already fails it (see networkReferenceTaken). */
/** The network reference of a new authorization was taken by one inserted meanwhile (a repeat, or a concurrent one). */
export const networkReferenceTaken = (error: unknown): boolean =>
  pgErrorCode(error) === PG_UNIQUE_VIOLATION &&
  (error as { constraint?: unknown }).constraint === "authorizations_network_reference";

export function authorizationInsert(row: AuthorizationRow): Write {
  return {
    text: `INSERT INTO engine.authorizations (${COLUMNS.join(", ")}) VALUES (${COLUMNS.map((_, i) => `$${i + 1}`).join(", ")})`,
    values: COLUMNS.map((c) => row[c]),
  };
}

const MUTABLE = [
  "status",
  "amount",
  "requested_amount",
  "fees",
  "decision_type",
  "status_reason",
  "decline_reason",
  "reserved",
  "held",
  "debited",
  "pending_amount",
  "pending_fees",
  "decision_due_at",
  "decision_event_id",
  "card_balance",
  "card_holder_name",
  "metadata",
  "stand_in_rule",
  "decided_at",
] as const satisfies ReadonlyArray<keyof AuthorizationRow>;

/** Writes a transition's result: the mutable fields and updated_at as the row carries them. */
export function authorizationUpdate(row: AuthorizationRow): Write {
  return {
    text: `UPDATE engine.authorizations SET ${MUTABLE.map((c, i) => `${c} = $${i + 2}`).join(", ")}, updated_at = $${MUTABLE.length + 2}
            WHERE id = $1`,
    values: [row.id, ...MUTABLE.map((c) => row[c]), row.updated_at],
  };
}

export async function findAuthorization(
  db: Queryable,
  scope: Scope,
  id: string,
  lock = false,
): Promise<AuthorizationRow | undefined> {
  const { rows } = await db.query<AuthorizationRow & Record<string, unknown>>(
    `SELECT * FROM engine.authorizations WHERE id = $1 AND business_id = $2 AND mode = $3${lock ? " FOR UPDATE" : ""}`,
    [id, scope.businessId, scope.mode],
  );
  return rows[0];
}

/** Of these authorizations, the ones no longer waiting for an answer (the decision waiters' shared poll). */
export async function findDecidedAmong(db: Queryable, ids: string[]): Promise<AuthorizationRow[]> {
  const { rows } = await db.query<AuthorizationRow & Record<string, unknown>>(
    "SELECT * FROM engine.authorizations WHERE id = ANY($1::text[]) AND decision_due_at IS NULL",
    [ids],
  );
  return rows;
}

/**
 * For those who know only the id (the decisions consumer, a waiting request, the sweeper): locks the row, then its
 * funding account's, in one statement, with the card holder's name (a check's default answer reports it).
 * `skipLocked`: undefined when another transaction holds the authorization.
 */
export async function lockAuthorizationById(
  db: Queryable,
  id: string,
  opts: { skipLocked?: boolean } = {},
): Promise<LockedAuthorization | undefined> {
  const { rows } = await db.query<LockedRow>(
    `${LOCKED_SELECT} WHERE au.id = $1 FOR UPDATE OF au${opts.skipLocked ? " SKIP LOCKED" : ""} FOR UPDATE OF ac`,
    [id],
  );
  return rows[0] && lockedFrom(rows[0]);
}

type LockedRow = AuthorizationRow & { funding_account: Record<string, unknown>; name_on_card: string | null } & Record<
    string,
    unknown
  >;

const LOCKED_SELECT = `SELECT au.*, to_jsonb(ac) AS funding_account,
            (SELECT c.card_holder_name FROM engine.cards c WHERE c.id = au.card_id) AS name_on_card
       FROM engine.authorizations au JOIN engine.accounts ac ON ac.id = au.account_id`;

function lockedFrom({
  funding_account: account,
  name_on_card: cardHolderName,
  ...row
}: LockedRow): LockedAuthorization {
  return {
    row: row as AuthorizationRow,
    fundingAccount: accountFromJson(account),
    cardHolderName: cardHolderName ?? undefined,
  };
}

/** An authorization locked for deciding, with its funding account (locked too) and the name on its card. */
export interface LockedAuthorization {
  row: AuthorizationRow;
  fundingAccount: AccountRow;
  cardHolderName: string | undefined;
}

/**
 * Of these authorizations, locks those that no other transaction holds, then their funding accounts, in one statement
 * (the timeout defaults applied together). An authorization held elsewhere is left out, never waited for; the accounts
 * are waited for, in id order, as every transaction that locks several does. No deadlock: every transaction locks an
 * authorization before its account, so none holding an account waits for an authorization this one holds.
 */
export async function lockFreeAuthorizations(db: Queryable, ids: string[]): Promise<LockedAuthorization[]> {
  const { rows } = await db.query<LockedRow>(
    `${LOCKED_SELECT} WHERE au.id = ANY($1::text[]) ORDER BY ac.id, au.id
      FOR UPDATE OF au SKIP LOCKED FOR UPDATE OF ac`,
    [ids],
  );
  return rows.map(lockedFrom);
}

export async function findByNetworkReference(
  db: Queryable,
  scope: Scope,
  cardId: string,
  reference: string,
): Promise<AuthorizationRow | undefined> {
  const { rows } = await db.query<AuthorizationRow & Record<string, unknown>>(
    "SELECT * FROM engine.authorizations WHERE business_id = $1 AND mode = $2 AND card_id = $3 AND network_reference = $4",
    [scope.businessId, scope.mode, cardId, reference],
  );
  return rows[0];
}

/**
 * The open answer deadlines, earliest first, at most `limit` (not locked), but those in `excluding` (their default is
 * under way, or a request in this process applies it).
 */
export async function upcomingDeadlines(
  db: Queryable,
  limit: number,
  excluding: readonly string[] = [],
): Promise<Array<{ id: string; dueAt: Date; accountId: string }>> {
  const { rows } = await db.query<{ id: string; decision_due_at: Date; account_id: string }>(
    `SELECT id, decision_due_at, account_id FROM engine.authorizations
      WHERE decision_due_at IS NOT NULL AND id <> ALL($2::text[])
      ORDER BY decision_due_at LIMIT $1`,
    [limit, excluding],
  );
  return rows.map((r) => ({ id: r.id, dueAt: r.decision_due_at, accountId: r.account_id }));
}

/** Past this many, authorizations awaiting an answer are counted as this many: the count stays one bounded index scan. */
export const AWAITING_COUNT_CAP = 100_000;

/**
 * Every authorization awaiting its receiver's answer (whichever engine process asked), and how far past its deadline
 * the earliest one is (0 when none is overdue): two reads of the authorizations_awaiting index, for a metrics scrape.
 */
export async function awaitingAnswers(db: Queryable): Promise<{ count: number; overdueSeconds: number }> {
  const { rows } = await db.query<{ count: number; past_due_seconds: number }>(
    `SELECT (SELECT count(*) FROM (SELECT 1 FROM engine.authorizations WHERE decision_due_at IS NOT NULL LIMIT ${AWAITING_COUNT_CAP}) capped)::int
              AS count,
            COALESCE(extract(epoch FROM clock_timestamp() - (SELECT min(decision_due_at) FROM engine.authorizations
                                                               WHERE decision_due_at IS NOT NULL)), 0)::float8 AS past_due_seconds`,
  );
  return { count: rows[0]?.count ?? 0, overdueSeconds: Math.max(0, rows[0]?.past_due_seconds ?? 0) };
}

/** What the card has held or debited since the start of each period (the spending limits' "already spent"). */
export async function spentSince(
  db: Queryable,
  cardId: string,
  starts: Array<[LimitInterval, Date]>,
): Promise<Partial<Record<LimitInterval, number>>> {
  if (starts.length === 0) return {};
  const sums = starts.map(
    ([,], i) => `COALESCE(sum(held + debited) FILTER (WHERE created_at >= $${i + 2}), 0)::bigint AS s${i}`,
  );
  const { rows } = await db.query<Record<string, number>>(
    `SELECT ${sums.join(", ")} FROM engine.authorizations WHERE card_id = $1 AND type = 'capture'`,
    [cardId, ...starts.map(([, start]) => start)],
  );
  return Object.fromEntries(starts.map(([interval], i) => [interval, Number(rows[0]?.[`s${i}`] ?? 0)]));
}

/**
 * What stand-in approved for the card since `since` and still stands (debited: not declined, not reversed): the
 * "already approved today" of the per-card daily stand-in limit. The caller holds the lock on the card's funding
 * account, which every request and decision on the card takes first, so two decisions never both count without the
 * other's approval. Reads the card's authorizations of the day (authorizations_by_card).
 */
export async function standInApprovedSince(db: Queryable, scope: Scope, cardId: string, since: Date): Promise<number> {
  const { rows } = await db.query<{ total: number }>(
    `SELECT COALESCE(sum(amount), 0)::bigint AS total FROM engine.authorizations
      WHERE card_id = $1 AND business_id = $2 AND mode = $3 AND created_at >= $4
        AND stand_in_rule IS NOT NULL AND debited > 0`,
    [cardId, scope.businessId, scope.mode, since],
  );
  return Number(rows[0]?.total ?? 0);
}
