import { enqueue } from "@cardhold/bus";
import {
  TOPICS,
  type LedgerCommandMessage,
  type LedgerDebitCommand,
  type LedgerFailure,
  type LedgerRefundCommand,
  type LedgerResultMessage,
} from "@cardhold/contracts";
import type { Queryable } from "@cardhold/db";
import type { Scope } from "@cardhold/query";
import { findAccount, SCHEMA, settlementAccount, systemAccount } from "../store/accounts.store";
import { openLedger } from "../store/ledger.store";

type Result = LedgerResultMessage["data"];

interface CommandRow {
  command_id: string;
  status: string;
  account_id: string | null;
  amount: number;
  currency: string | null;
  result: Result;
}

const failed = (
  c: { commandId: string },
  command: Result["command"],
  reason: LedgerFailure,
  extra: Partial<Result> = {},
): Result => ({
  commandId: c.commandId,
  command,
  status: "failed",
  failureReason: reason,
  account: null,
  amount: 0,
  currency: null,
  availableAfter: null,
  ...extra,
});

async function debit(
  tx: Queryable,
  scope: Scope,
  c: LedgerDebitCommand["data"],
): Promise<{ result: Result; movementId?: string }> {
  const accountId = c.account ?? (await settlementAccount(tx, scope, c.currency));
  const account = await findAccount(tx, scope, accountId);
  if (!account)
    return { result: failed(c, "ledger.debit", "account-not-found", { amount: c.amount, currency: c.currency }) };
  const base = { account: account.id, amount: c.amount, currency: c.currency };
  if (account.status !== "active") return { result: failed(c, "ledger.debit", "account-inactive", base) };
  if (account.currency !== c.currency) return { result: failed(c, "ledger.debit", "currency-mismatch", base) };
  const external = await systemAccount(tx, scope, "external", c.currency);
  const ledger = await openLedger(tx, scope, { funded: [account.id], system: [external] });
  if (ledger.balance(account.id).available < c.amount)
    return { result: failed(c, "ledger.debit", "insufficient-funds", base) };
  const movementId = await ledger.move({
    kind: "bill-debit",
    reference: c.reference,
    description: c.description,
    from: account.id,
    to: external,
    amount: c.amount,
  });
  return {
    result: {
      commandId: c.commandId,
      command: "ledger.debit",
      status: "succeeded",
      failureReason: null,
      ...base,
      availableAfter: ledger.balance(account.id).available,
    },
    movementId,
  };
}

async function refund(
  tx: Queryable,
  scope: Scope,
  c: LedgerRefundCommand["data"],
): Promise<{ result: Result; movementId?: string }> {
  const { rows } = await tx.query<CommandRow & Record<string, unknown>>(
    `SELECT * FROM engine.ledger_commands WHERE command_id = $1 AND business_id = $2 AND mode = $3 AND type = 'ledger.debit'`,
    [c.debitCommandId, scope.businessId, scope.mode],
  );
  const original = rows[0];
  if (!original || original.status !== "succeeded") return { result: failed(c, "ledger.refund", "debit-not-found") };
  const base = {
    account: original.account_id,
    amount: original.amount,
    currency: original.currency as Result["currency"],
  };
  const { rowCount } = await tx.query("SELECT 1 FROM engine.ledger_commands WHERE refunds = $1", [c.debitCommandId]);
  if (rowCount) return { result: failed(c, "ledger.refund", "already-refunded", base) };
  const external = await systemAccount(tx, scope, "external", original.currency!);
  const ledger = await openLedger(tx, scope, { funded: [original.account_id!], system: [external] });
  const movementId = await ledger.move({
    kind: "bill-refund",
    reference: c.reference,
    description: c.description,
    from: external,
    to: original.account_id!,
    amount: original.amount,
  });
  return {
    result: {
      commandId: c.commandId,
      command: "ledger.refund",
      status: "succeeded",
      failureReason: null,
      ...base,
      availableAfter: ledger.balance(original.account_id!).available,
    },
    movementId,
  };
}

/**
 * Carries out a ledger command from the bill-service and answers on ledger-results.v1, in the caller's transaction.
 * A command seen before is answered again with its first result and moves no money.
 */
export async function handleLedgerCommand(tx: Queryable, message: LedgerCommandMessage): Promise<Result> {
  const scope = { businessId: message.businessId, mode: message.mode };
  const { rows } = await tx.query<CommandRow & Record<string, unknown>>(
    "SELECT * FROM engine.ledger_commands WHERE command_id = $1",
    [message.data.commandId],
  );
  let result = rows[0]?.result;
  if (!result) {
    const outcome =
      message.type === "ledger.debit" ? await debit(tx, scope, message.data) : await refund(tx, scope, message.data);
    result = outcome.result;
    await tx.query(
      `INSERT INTO engine.ledger_commands (command_id, business_id, mode, type, reference, status, account_id, amount, currency,
         movement_id, refunds, result, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, now())`,
      [
        result.commandId,
        scope.businessId,
        scope.mode,
        message.type,
        message.data.reference,
        result.status,
        result.account,
        result.amount,
        result.currency,
        outcome.movementId ?? null,
        message.type === "ledger.refund" && result.status === "succeeded" ? message.data.debitCommandId : null,
        result,
      ],
    );
  }
  const value: LedgerResultMessage = {
    type: "ledger.result",
    businessId: message.businessId,
    mode: message.mode,
    occurredAt: new Date().toISOString(),
    data: result,
  };
  await enqueue(tx, SCHEMA, [{ topic: TOPICS.ledgerResults, key: message.data.reference, value }]);
  return result;
}
