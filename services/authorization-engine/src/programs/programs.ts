import { DEFAULT_DISPUTE_WINDOW_DAYS, programRequestSchema, type ProgramRequest } from "@cardhold/contracts";
import type { Db, Queryable } from "@cardhold/db";
import { mayStillArrive, newId, notFound, recordIdempotentAnswer, stateConflict, validate } from "@cardhold/platform";
import type { Scope } from "@cardhold/query";
import { requireMoneyAccount } from "../accounts/accounts";
import { requireFee } from "../fees/fees";
import { toProgramRecord } from "./program-records";
import { settlementAccount } from "../store/accounts.store";
import {
  findProgram,
  insertProgram,
  setProgramLive,
  updateNewProgram,
  type ProgramFields,
} from "../store/programs.store";

const WEBHOOK_WAIT_MS = 3_000;

/** A webhook the program names must be one of the business's (the engine's copy of webhooks.v1 may lag a moment). */
async function requireWebhook(db: Db, scope: Scope, id: string): Promise<void> {
  const deadline = Date.now() + WEBHOOK_WAIT_MS;
  for (;;) {
    const { rowCount } = await db.query(
      "SELECT 1 FROM engine.webhooks WHERE id = $1 AND business_id = $2 AND mode = $3",
      [id, scope.businessId, scope.mode],
    );
    if (rowCount) return;
    // Only a webhook made moments ago can still be on its way here on webhooks.v1.
    if (Date.now() >= deadline || !mayStillArrive(id, 10_000)) throw notFound("Webhook", id);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

type TransactionFee = NonNullable<ProgramRequest["authorization"]>["transactionFee"];
type TransactionFeeFields = Pick<
  ProgramFields,
  | "transaction_fee"
  | "transaction_fee_id"
  | "transaction_fee_structure"
  | "transaction_fee_value"
  | "transaction_fee_cap"
  | "fees_account_id"
>;

const NO_TRANSACTION_FEE: TransactionFeeFields = {
  transaction_fee: 0,
  transaction_fee_id: null,
  transaction_fee_structure: null,
  transaction_fee_value: null,
  transaction_fee_cap: null,
  fees_account_id: null,
};

/** A fee id is copied onto the program (its terms and account); minor units are a flat fee; `{}` is no fee. */
async function transactionFeeFields(
  tx: Queryable,
  scope: Scope,
  currency: string,
  fee: TransactionFee | undefined,
): Promise<TransactionFeeFields> {
  if (typeof fee === "number") return { ...NO_TRANSACTION_FEE, transaction_fee: fee };
  if (typeof fee !== "string") return NO_TRANSACTION_FEE;
  const named = await requireFee(tx, scope, fee, currency, "authorization.transactionFee");
  return {
    ...NO_TRANSACTION_FEE,
    transaction_fee_id: named.id,
    transaction_fee_structure: named.structure,
    transaction_fee_value: named.value,
    transaction_fee_cap: named.cap,
    fees_account_id: named.account_id,
  };
}

async function programFields(tx: Queryable, scope: Scope, p: ProgramRequest): Promise<ProgramFields> {
  const auth = p.authorization;
  const settlement = auth?.settlementAccount
    ? (await requireMoneyAccount(tx, scope, auth.settlementAccount, p.currency, "authorization.settlementAccount")).id
    : await settlementAccount(tx, scope, p.currency);
  return {
    name: p.name,
    description: p.description ?? null,
    network: p.network,
    type: p.type,
    quantity: p.quantity ?? null,
    currency: p.currency,
    distribution: p.distribution ?? null,
    personalization: p.personalization ?? null,
    funding_source_type: auth?.fundingSourceType ?? "settlement-account",
    settlement_account_id: settlement,
    ...(await transactionFeeFields(tx, scope, p.currency, auth?.transactionFee)),
    webhook_id: auth?.webhook ?? null,
    timeout_default: auth?.timeoutDefault ?? null,
    stand_in: auth?.standIn ?? null,
    dispute_provisional_credit: auth?.disputes?.provisionalCredit ?? false,
    dispute_window_days: auth?.disputes?.windowDays ?? DEFAULT_DISPUTE_WINDOW_DAYS,
    metadata: p.metadata ?? {},
  };
}

async function validated(db: Db, scope: Scope, body: unknown): Promise<ProgramRequest> {
  const request = validate(programRequestSchema, body);
  if (request.authorization?.webhook) await requireWebhook(db, scope, request.authorization.webhook);
  return request;
}

/** A virtual program is live at once; a physical one is `new` until it goes live. */
export async function createProgram(db: Db, scope: Scope, body: unknown) {
  const request = await validated(db, scope, body);
  return db.tx(async (tx) => {
    const status = request.type === "virtual" ? "live" : "new";
    const row = await insertProgram(tx, scope, newId("cardProgram"), status, await programFields(tx, scope, request));
    const record = toProgramRecord(row);
    await recordIdempotentAnswer(tx, 201, { code: "success", data: record });
    return record;
  });
}

/** Replaces a program's fields; not once it is live. */
export async function updateProgram(db: Db, scope: Scope, id: string, body: unknown) {
  const request = await validated(db, scope, body);
  return db.tx(async (tx) => {
    const current = await findProgram(tx, scope, id);
    if (!current) throw notFound("Card program", id);
    const updated =
      current.status === "new"
        ? await updateNewProgram(tx, scope, id, await programFields(tx, scope, request))
        : undefined;
    if (!updated) throw stateConflict(`Card program ${id} is live and can no longer be changed`);
    const record = toProgramRecord(updated);
    await recordIdempotentAnswer(tx, 200, { code: "success", data: record });
    return record;
  });
}

export async function getProgram(db: Queryable, scope: Scope, id: string) {
  const row = await findProgram(db, scope, id);
  if (!row) throw notFound("Card program", id);
  return row;
}

/** Test mode: a physical program goes live (a virtual one already is). */
export async function simulateGoLive(db: Db, scope: Scope, id: string) {
  await getProgram(db, scope, id);
  return toProgramRecord((await setProgramLive(db, scope, id))!);
}
