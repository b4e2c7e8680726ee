import { accountRequestSchema, simulatePayInSchema, type SimulatePayIn } from "@cardhold/contracts";
import { PG_UNIQUE_VIOLATION, pgErrorCode, type Db, type Queryable } from "@cardhold/db";
import {
  conflict,
  findProjectedCustomers,
  notFound,
  recordIdempotentAnswer,
  stateConflict,
  validate,
} from "@cardhold/platform";
import type { Scope } from "@cardhold/query";
import { toAccountRecord, toBalanceRecord } from "./account-records";
import {
  findAccount,
  findAccountByNumber,
  insertAccount,
  isPaidIn,
  recordPayIn,
  SCHEMA,
  settlementAccount,
  systemAccount,
  type AccountRow,
} from "../store/accounts.store";
import { openLedger } from "../store/ledger.store";
import { paymentRequestOfAccount } from "../store/payment-requests.store";
import { payInToPaymentRequest } from "../payment-requests/payment-request-pay-ins";

/** How long a customer created a moment ago may take to reach this service's projection. */
export const PROJECTION_WAIT_MS = 3_000;

/** Runs a write; a reference the business already used becomes a 409. */
export async function uniqueReference<T>(
  what: string,
  reference: string | undefined,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (
      pgErrorCode(error) === PG_UNIQUE_VIOLATION &&
      reference !== undefined &&
      /reference/.test(String((error as Error).message))
    ) {
      throw conflict(`A ${what} with reference "${reference}" already exists`);
    }
    throw error;
  }
}

/** The customer must exist for this business and mode (looked up in the projection, which may lag a moment). */
export async function requireCustomer(db: Db, scope: Scope, id: string) {
  const [customer] = await findProjectedCustomers(db, SCHEMA, scope, [id], PROJECTION_WAIT_MS);
  if (!customer) throw notFound("Customer", id);
  return customer;
}

/** An account of this business that can hold money in `currency` (not virtual): for settlement and debit sources. */
export async function requireMoneyAccount(
  db: Queryable,
  scope: Scope,
  id: string,
  currency: string,
  field: string,
): Promise<AccountRow> {
  const account = await findAccount(db, scope, id);
  if (!account) throw notFound("Account", id);
  if (account.role === "virtual") throw stateConflict(`${field}: account ${id} is virtual and holds no money`);
  if (account.currency !== currency)
    throw stateConflict(`${field}: account ${id} is in ${account.currency}, not ${currency}`);
  return account;
}

export async function createAccount(db: Db, scope: Scope, body: unknown) {
  const request = validate(accountRequestSchema, body);
  if (request.customer) await requireCustomer(db, scope, request.customer);
  return uniqueReference("account", request.reference, () =>
    db.tx(async (tx) => {
      const settlement =
        request.type === "virtual"
          ? request.settlementAccount
            ? (await requireMoneyAccount(tx, scope, request.settlementAccount, request.currency, "settlementAccount"))
                .id
            : await settlementAccount(tx, scope, request.currency)
          : null;
      const row = await insertAccount(tx, scope, {
        role: request.type === "virtual" ? "virtual" : "customer",
        type: request.type,
        name: request.name,
        currency: request.currency,
        customer_id: request.customer,
        reference: request.reference,
        settlement_account_id: settlement,
        metadata: request.metadata,
        depositChannel: request.depositChannels?.includes("bank-account") ?? false,
      });
      const record = toAccountRecord(row!);
      await recordIdempotentAnswer(tx, 201, { code: "success", data: record });
      return record;
    }),
  );
}

export async function getAccount(db: Queryable, scope: Scope, id: string): Promise<AccountRow> {
  const account = await findAccount(db, scope, id);
  if (!account) throw notFound("Account", id);
  return account;
}

/**
 * Test mode: money arrives at an account's deposit channel (its 10-digit number) from outside. A virtual account
 * holds nothing: the money lands in its settlement account. A pay-in sent again with the same reference credits
 * nothing more. Answers with the credited account and its balance. A payment request's account takes its pay-ins
 * through the request (payment-requests/payment-request-pay-ins.ts), also once it is paid and its account closed.
 */
export async function simulatePayIn(db: Db, scope: Scope, body: unknown) {
  const request = validate(simulatePayInSchema, body);
  const target = await findAccountByNumber(db, scope, request.accountNumber);
  if (!target) throw notFound("Account with number", request.accountNumber);
  const paymentRequestId = await paymentRequestOfAccount(db, scope, target.id);
  if (!paymentRequestId && target.status !== "active") throw stateConflict(`account ${target.id} is ${target.status}`);
  let creditedId = target.settlement_account_id ?? target.id;
  try {
    await db.tx(async (tx) => {
      if (request.reference && (await isPaidIn(tx, scope, request.reference))) return;
      if (paymentRequestId) creditedId = await payInToPaymentRequest(tx, scope, request, paymentRequestId);
      else await payIn(tx, scope, request, target, creditedId);
      await recordIdempotentAnswer(tx, 200, { code: "success", data: await creditedRecord(tx, scope, creditedId) });
    });
  } catch (error) {
    // The same reference paid in at the same moment: that one stands, this one moved nothing.
    if (pgErrorCode(error) !== PG_UNIQUE_VIOLATION) throw error;
  }
  return creditedRecord(db, scope, creditedId);
}

async function creditedRecord(db: Queryable, scope: Scope, creditedId: string) {
  const credited = await getAccount(db, scope, creditedId);
  return { ...toAccountRecord(credited), balance: toBalanceRecord(credited) };
}

/** Credits the account from the outside world (the external system account), recording a given reference. */
async function payIn(
  tx: Queryable,
  scope: Scope,
  request: SimulatePayIn,
  target: AccountRow,
  creditedId: string,
): Promise<void> {
  const external = await systemAccount(tx, scope, "external", target.currency);
  const ledger = await openLedger(tx, scope, { funded: [creditedId], system: [external] });
  const movementId = await ledger.move({
    kind: "pay-in",
    reference: request.reference ?? request.accountNumber,
    description: `${request.method} to ${request.accountNumber}`,
    from: external,
    to: creditedId,
    amount: request.amount,
  });
  if (request.reference) await recordPayIn(tx, scope, request.reference, movementId);
}
