import { enqueue } from "@cardhold/bus";
import { feeRequestSchema } from "@cardhold/contracts";
import type { Db, Queryable } from "@cardhold/db";
import { newId, notFound, recordIdempotentAnswer, stateConflict, validate } from "@cardhold/platform";
import type { Scope } from "@cardhold/query";
import { requireMoneyAccount } from "../accounts/accounts";
import { SCHEMA } from "../store/accounts.store";
import { findFee, insertFee, type FeeRow } from "../store/fees.store";
import { feeCreated } from "./fee-messages";
import { toFeeRecord } from "./fee-records";

/** A fee is paid into an account of the business in the fee's currency; it is announced on fees.v1 with it. */
export async function createFee(db: Db, scope: Scope, body: unknown) {
  const request = validate(feeRequestSchema, body);
  return db.tx(async (tx) => {
    const account = await requireMoneyAccount(tx, scope, request.account, request.currency, "account");
    const row = await insertFee(tx, scope, newId("fee"), {
      name: request.name,
      description: request.description ?? null,
      structure: request.structure,
      currency: request.currency,
      value: String(request.value),
      cap: request.cap ?? null,
      account_id: account.id,
      metadata: request.metadata ?? {},
    });
    await enqueue(tx, SCHEMA, [feeCreated(scope, row)]);
    const record = toFeeRecord(row);
    await recordIdempotentAnswer(tx, 201, { code: "success", data: record });
    return record;
  });
}

export async function getFee(db: Queryable, scope: Scope, id: string): Promise<FeeRow> {
  const row = await findFee(db, scope, id);
  if (!row) throw notFound("Fee", id);
  return row;
}

/** The fee a request names (`field`), which must be in the currency it is charged in. */
export async function requireFee(
  db: Queryable,
  scope: Scope,
  id: string,
  currency: string,
  field: string,
): Promise<FeeRow> {
  const fee = await getFee(db, scope, id);
  if (fee.currency !== currency) throw stateConflict(`${field}: fee ${id} is in ${fee.currency}, not ${currency}`);
  return fee;
}
