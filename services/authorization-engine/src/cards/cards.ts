import { randomInt } from "node:crypto";
import {
  activateCardSchema,
  cardRequestSchema,
  cardUpdateSchema,
  fundCardSchema,
  resetPinSchema,
  type CardRequest,
} from "@cardhold/contracts";
import type { Db, Queryable } from "@cardhold/db";
import {
  AppError,
  badRequest,
  newId,
  notFound,
  recordIdempotentAnswer,
  stateConflict,
  validate,
} from "@cardhold/platform";
import type { Scope } from "@cardhold/query";
import { requireCustomer, requireMoneyAccount, uniqueReference } from "../accounts/accounts";
import { fundAcrossCurrencies, requireDebitSource, type DebitRequest } from "../fx/card-funding";
import type { CardVault } from "./card-vault";
import { generateCvv, generatePan, expiryFor } from "../domain/card-number";
import { cardStatusAfter, CardStateError, type CardAction } from "../domain/card-status";
import { LedgerError } from "../domain/ledger";
import { toBalanceRecord } from "../accounts/account-records";
import { toCardRecord } from "./card-records";
import { findAccount, insertAccount, type AccountRow } from "../store/accounts.store";
import { findCard, insertCard, updateCard, type CardChange, type CardRow } from "../store/cards.store";
import { openLedger } from "../store/ledger.store";
import { findProgram, type ProgramRow } from "../store/programs.store";

export interface CardContext {
  db: Db;
  vault: CardVault;
}

const random = (below: number) => randomInt(below);

/** Money moved from an account that cannot cover it. */
const insufficientFunds = (message: string) => new AppError(422, "insufficient-funds", message);

async function moveFunding(tx: Queryable, scope: Scope, from: string, to: string, amount: number, cardId: string) {
  const ledger = await openLedger(tx, scope, { funded: [from, to] });
  try {
    await ledger.move({
      kind: "card-funding",
      reference: cardId,
      description: `funding card ${cardId}`,
      from,
      to,
      amount,
    });
  } catch (error) {
    if (error instanceof LedgerError && error.code === "insufficient-funds") throw insufficientFunds(error.message);
    throw error;
  }
}

/** Funding needs a source. */
function checkFundingRequest(r: CardRequest): void {
  if (r.amount !== undefined && !r.debitSource)
    throw badRequest("Invalid request body: debitSource", [
      { path: "debitSource", message: "is required with amount" },
    ]);
}

/**
 * The account a new card spends from: the one the request names (`fundingSource`), else the program's settlement
 * account (settlement-account programs) or a new account of the card's own (card-account programs), with a deposit
 * channel when the request asks for one.
 */
export async function fundingAccountFor(
  tx: Queryable,
  scope: Scope,
  program: ProgramRow,
  r: { fundingSource?: string; customer: string; depositChannels?: string[] },
  cardId: string,
): Promise<AccountRow> {
  if (r.fundingSource) return requireMoneyAccount(tx, scope, r.fundingSource, program.currency, "fundingSource");
  if (program.funding_source_type === "settlement-account")
    return (await findAccount(tx, scope, program.settlement_account_id))!;
  return (await insertAccount(tx, scope, {
    role: "card",
    type: "sub",
    name: `Card account ${cardId}`,
    currency: program.currency,
    customer_id: r.customer,
    depositChannel: r.depositChannels?.includes("bank-account") ?? false,
  }))!;
}

/**
 * Funds a card: moves `amount` from `debitSource` into the account the card spends from (its own account, or the
 * settlement account a settlement-account program's cards share). When `debitSource` is that very account the money
 * is already where the card spends it: nothing moves, but the account must hold the amount. A `debitSource` in another
 * currency than the card's converts at the quote `fxHash` names (fx/card-funding.ts).
 */
async function fundCardAccount(tx: Queryable, scope: Scope, funding: DebitRequest, card: CardRow, amount: number) {
  const source = await requireDebitSource(tx, scope, funding);
  if (source.currency !== card.currency)
    return fundAcrossCurrencies(tx, scope, { source, card, amount, fxHash: funding.fxHash });
  if (source.id !== card.funding_account_id)
    return moveFunding(tx, scope, source.id, card.funding_account_id, amount, card.id);
  const { available } = (await openLedger(tx, scope, { funded: [source.id] })).balance(source.id);
  if (available < amount) throw insufficientFunds(`insufficient funds: available ${available} is less than ${amount}`);
}

/** Issues a card: inactive, with a Luhn-valid PAN and a CVV stored sealed; optionally funded from `debitSource`. */
export async function createCard(ctx: CardContext, scope: Scope, body: unknown) {
  const r = validate(cardRequestSchema, body);
  const customer = await requireCustomer(ctx.db, scope, r.customer);
  return uniqueReference("card", r.reference, () =>
    ctx.db.tx(async (tx) => {
      const program = await findProgram(tx, scope, r.program);
      if (!program) throw notFound("Card program", r.program);
      if (program.status !== "live")
        throw stateConflict(`Card program ${program.id} is not live yet: cards can be issued once it is`);
      checkFundingRequest(r);
      const id = newId("card");
      const account = await fundingAccountFor(tx, scope, program, r, id);
      const pan = generatePan(program.network, random);
      const card = await insertCard(tx, scope, {
        id,
        program_id: program.id,
        customer_id: r.customer,
        reference: r.reference,
        type: program.type,
        network: program.network,
        currency: program.currency,
        funding_account_id: account.id,
        card_holder_name: r.cardHolderName ?? customer.name.slice(0, 26),
        last4: pan.slice(-4),
        expiry: expiryFor(new Date()),
        pan_encrypted: ctx.vault.seal(pan),
        cvv_encrypted: ctx.vault.seal(generateCvv(random)),
        pan_hash: ctx.vault.panHash(pan),
        controls: r.controls ?? {},
        metadata: r.metadata ?? {},
      });
      if (r.amount !== undefined)
        await fundCardAccount(tx, scope, { ...r, debitSource: r.debitSource! }, card, r.amount);
      const record = toCardRecord(card);
      await recordIdempotentAnswer(tx, 201, { code: "success", data: record });
      return record;
    }),
  );
}

export async function getCard(db: Queryable, scope: Scope, id: string): Promise<CardRow> {
  const card = await findCard(db, scope, id);
  if (!card) throw notFound("Card", id);
  return card;
}

/** The card's status after `action`; a status that does not allow it is a 422. */
function statusAfter(card: CardRow, action: CardAction) {
  try {
    return cardStatusAfter(card.status, action);
  } catch (error) {
    if (error instanceof CardStateError) throw stateConflict(`Card ${card.id}: ${error.message}`);
    throw error;
  }
}

/** Applies a lifecycle action to a card, locked. */
async function changeCard(
  db: Db,
  scope: Scope,
  id: string,
  action: CardAction,
  change: (card: CardRow) => CardChange | Promise<CardChange>,
) {
  return db.tx(async (tx) => {
    const card = await findCard(tx, scope, id, true);
    if (!card) throw notFound("Card", id);
    const status = statusAfter(card, action);
    const record = toCardRecord(await updateCard(tx, scope, id, { ...(await change(card)), status }));
    await recordIdempotentAnswer(tx, 200, { code: "success", data: record });
    return record;
  });
}

export const blockCard = (db: Db, scope: Scope, id: string) => changeCard(db, scope, id, "block", () => ({}));
export const unblockCard = (db: Db, scope: Scope, id: string) => changeCard(db, scope, id, "unblock", () => ({}));
export const terminateCard = (db: Db, scope: Scope, id: string) => changeCard(db, scope, id, "terminate", () => ({}));

export function updateCardSettings(db: Db, scope: Scope, id: string, body: unknown) {
  const update = validate(cardUpdateSchema, body);
  return changeCard(db, scope, id, "change", () => ({
    ...(update.controls !== undefined && { controls: update.controls }),
    ...(update.metadata !== undefined && { metadata: update.metadata }),
  }));
}

/** Activation proves the card is in the holder's hands: the CVV must match; the PIN is kept as a hash. */
export function activateCard(ctx: CardContext, scope: Scope, id: string, body: unknown) {
  const { cvv, pin } = validate(activateCardSchema, body);
  return changeCard(ctx.db, scope, id, "activate", (card) => {
    if (ctx.vault.open(card.cvv_encrypted) !== cvv)
      throw badRequest("Invalid request body: cvv", [{ path: "cvv", message: "does not match the card's CVV" }]);
    return { pin_hash: ctx.vault.hashPin(pin) };
  });
}

export function resetPin(ctx: CardContext, scope: Scope, id: string, body: unknown) {
  const { pin } = validate(resetPinSchema, body);
  return changeCard(ctx.db, scope, id, "change", () => ({ pin_hash: ctx.vault.hashPin(pin) }));
}

/** Moves money from `debitSource` to the account the card spends from (see fundCardAccount); answers its balance. */
export async function fundCard(db: Db, scope: Scope, id: string, body: unknown) {
  const request = validate(fundCardSchema, body);
  const card = await getCard(db, scope, id);
  return db.tx(async (tx) => {
    statusAfter((await findCard(tx, scope, id, true))!, "fund");
    await fundCardAccount(tx, scope, request, card, request.amount);
    const balance = toBalanceRecord((await findAccount(tx, scope, card.funding_account_id))!);
    await recordIdempotentAnswer(tx, 200, { code: "success", data: balance });
    return balance;
  });
}

export async function cardSecrets(ctx: CardContext, scope: Scope, id: string) {
  const card = await getCard(ctx.db, scope, id);
  return {
    cardHolderName: card.card_holder_name,
    last4: card.last4,
    pan: ctx.vault.open(card.pan_encrypted),
    expiry: card.expiry,
    cvv: ctx.vault.open(card.cvv_encrypted),
  };
}
