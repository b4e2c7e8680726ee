import { paymentRequestSchema, type PaymentRequestRequest } from "@cardhold/contracts";
import type { Db, Queryable } from "@cardhold/db";
import { newId, notFound, recordIdempotentAnswer, validate } from "@cardhold/platform";
import type { Scope } from "@cardhold/query";
import { requireCustomer, requireMoneyAccount, uniqueReference } from "../accounts/accounts";
import { insertAccount, settlementAccount, type AccountRow } from "../store/accounts.store";
import {
  findPaymentRequest,
  insertPaymentRequest,
  type PaymentRequestBankAccount,
  type PaymentRequestRow,
} from "../store/payment-requests.store";
import { toPaymentRequestRecord } from "./payment-request-records";

/**
 * POST /payment-requests: opens the request's own virtual account (named `options.name`, settling into `account` or
 * the business's default account in the currency) with a fresh 10-digit deposit channel, and records the request
 * pending. Pay-ins to that number: payment-request-pay-ins.ts.
 */
export async function createPaymentRequest(db: Db, scope: Scope, body: unknown) {
  const request = validate(paymentRequestSchema, body);
  if (request.customer) await requireCustomer(db, scope, request.customer);
  return uniqueReference("payment request", request.reference, () =>
    db.tx(async (tx) => {
      const id = newId("paymentRequest");
      const landsIn = await landingAccount(tx, scope, request);
      const virtual = await openVirtualAccount(tx, scope, id, request, landsIn);
      const row = await insertPaymentRequest(tx, scope, {
        id,
        method: request.method,
        options: request.options,
        currency: request.currency,
        amount: request.amount,
        customer_id: request.customer ?? null,
        reference: request.reference ?? null,
        metadata: request.metadata ?? {},
        account_id: landsIn,
        virtual_account_id: virtual.id,
        bank_account: bankAccountOf(virtual),
        created_at: virtual.created_at,
      });
      const record = toPaymentRequestRecord(row);
      await recordIdempotentAnswer(tx, 201, { code: "success", data: record });
      return record;
    }),
  );
}

/** Where the money lands: `account` (of this business, not virtual, in the currency), else the default account. */
async function landingAccount(tx: Queryable, scope: Scope, request: PaymentRequestRequest): Promise<string> {
  if (!request.account) return settlementAccount(tx, scope, request.currency);
  return (await requireMoneyAccount(tx, scope, request.account, request.currency, "account")).id;
}

async function openVirtualAccount(
  tx: Queryable,
  scope: Scope,
  id: string,
  request: PaymentRequestRequest,
  landsIn: string,
): Promise<AccountRow> {
  const virtual = await insertAccount(tx, scope, {
    role: "virtual",
    type: "virtual",
    name: request.options.name,
    currency: request.currency,
    customer_id: request.customer,
    settlement_account_id: landsIn,
    metadata: { paymentRequest: id },
    depositChannel: true,
  });
  return virtual!;
}

function bankAccountOf(virtual: AccountRow): PaymentRequestBankAccount {
  const { accountName, accountNumber, bankName, bankCode, partner } = virtual.deposit_channels[0]!;
  return { accountName, accountNumber, bankName, bankCode, partner };
}

export async function getPaymentRequest(db: Queryable, scope: Scope, id: string): Promise<PaymentRequestRow> {
  const row = await findPaymentRequest(db, scope, id);
  if (!row) throw notFound("Payment request", id);
  return row;
}
