/**
 * Physical cards that reach their holder after they are made (compatibility notes part 2, "Cards: link and enrol"): the
 * card bureau prints a live physical program's cards (in test mode, POST /simulation/card-programs/:id/print-cards),
 * and POST /cards/:id/link gives one to a customer. Until then a printed card is no API card: linking makes it one
 * (same id, PAN and CVV), inactive until its holder activates it with the CVV on its back.
 */
import { randomInt, timingSafeEqual } from "node:crypto";
import { cardLinkSchema, printCardsSchema } from "@cardhold/contracts";
import type { Queryable } from "@cardhold/db";
import {
  badRequest,
  conflict,
  newId,
  notFound,
  recordIdempotentAnswer,
  stateConflict,
  validate,
} from "@cardhold/platform";
import type { Scope } from "@cardhold/query";
import { requireCustomer, uniqueReference } from "../accounts/accounts";
import { expiryFor, generateCvv, generatePan } from "../domain/card-number";
import type { Json } from "../record-shape";
import { findCard, insertCard } from "../store/cards.store";
import {
  countPrintedCardsLocked,
  findUnlinkedPrintedCard,
  insertPrintedCards,
  markPrintedCardLinked,
  type NewPrintedCard,
  type PrintedCardRow,
} from "../store/printed-cards.store";
import { findProgram, type ProgramRow } from "../store/programs.store";
import { toCardRecord } from "./card-records";
import { fundingAccountFor, type CardContext } from "./cards";

const random = (below: number) => randomInt(below);

/** Whether `pan` is the card's number; compared in constant time, and never logged. */
function panMatches(ctx: CardContext, card: PrintedCardRow, pan: string): boolean {
  const own = Buffer.from(ctx.vault.open(card.pan_encrypted));
  const given = Buffer.from(pan);
  return own.length === given.length && timingSafeEqual(own, given);
}

/** Why an id that names no printed card waiting for a holder cannot be linked: linked already, virtual, or unknown. */
async function notLinkable(tx: Queryable, scope: Scope, id: string): Promise<Error> {
  const card = await findCard(tx, scope, id);
  if (!card) return notFound("Card", id);
  if (card.type === "virtual")
    return stateConflict(
      `Card ${id} is virtual: it was issued to its customer, only printed physical cards are linked`,
    );
  return conflict(`Card ${id} is already linked to customer ${card.customer_id}`);
}

/**
 * POST /cards/:id/link: the printed card becomes the customer's card, inactive. By id, or by PAN (a body with `pan`,
 * which must be the card's number). Without a reference the card's id is its reference.
 */
export async function linkCard(ctx: CardContext, scope: Scope, id: string, body: unknown): Promise<Json> {
  const link = validate(cardLinkSchema, body);
  const customer = await requireCustomer(ctx.db, scope, link.customer);
  return uniqueReference("card", link.reference, () =>
    ctx.db.tx(async (tx) => {
      const printed = await findUnlinkedPrintedCard(tx, scope, id);
      if (!printed) throw await notLinkable(tx, scope, id);
      if (link.pan !== undefined && !panMatches(ctx, printed, link.pan))
        throw badRequest("Invalid request body: pan", [{ path: "pan", message: "is not this card's number" }]);
      const program = (await findProgram(tx, scope, printed.program_id))!;
      const card = await insertCard(tx, scope, {
        id: printed.id,
        program_id: program.id,
        customer_id: link.customer,
        reference: link.reference ?? printed.id,
        type: "physical",
        network: program.network,
        currency: program.currency,
        funding_account_id: (await fundingAccountFor(tx, scope, program, link, printed.id)).id,
        card_holder_name: link.cardHolderName ?? customer.name.slice(0, 26),
        last4: printed.last4,
        expiry: printed.expiry,
        pan_encrypted: printed.pan_encrypted,
        cvv_encrypted: printed.cvv_encrypted,
        pan_hash: ctx.vault.panHash(ctx.vault.open(printed.pan_encrypted)),
        controls: link.controls ?? {},
        metadata: link.metadata ?? {},
      });
      await markPrintedCardLinked(tx, scope, printed.id);
      const record = toCardRecord(card);
      await recordIdempotentAnswer(tx, 200, { code: "success", data: record });
      return record;
    }),
  );
}

/** A printed card as the bureau hands it over: what is on its face (the PAN included), never its CVV. */
function toPrintedCardRecord(program: ProgramRow, card: NewPrintedCard, pan: string): Json {
  return {
    id: card.id,
    object: "card.printed",
    program: program.id,
    type: "physical",
    network: program.network,
    currency: program.currency,
    pan,
    last4: card.last4,
    expiry: card.expiry,
  };
}

function printCard(ctx: CardContext, program: ProgramRow) {
  const pan = generatePan(program.network, random);
  const card: NewPrintedCard = {
    id: newId("card"),
    last4: pan.slice(-4),
    expiry: expiryFor(new Date()),
    pan_encrypted: ctx.vault.seal(pan),
    cvv_encrypted: ctx.vault.seal(generateCvv(random)),
  };
  return { card, record: toPrintedCardRecord(program, card, pan) };
}

/** Why the program's cards cannot be printed now, if they cannot. */
function printingProblem(program: ProgramRow, printed: number, quantity: number): string | undefined {
  if (program.type !== "physical")
    return `Card program ${program.id} is virtual: its cards are issued to their customers by POST /cards`;
  if (program.status !== "live") return `Card program ${program.id} is not live yet: its cards are printed once it is`;
  if (program.quantity !== null && printed + quantity > program.quantity)
    return `Card program ${program.id} has ${printed} of its ${program.quantity} cards printed: ${quantity} more is too many`;
  return undefined;
}

/**
 * Test mode: the card bureau prints `quantity` cards of a live physical program (no more than the program's quantity
 * in all). Answers what is on each card's face; the answer holds PANs, so the route keeps no copy of it.
 */
export async function simulatePrintCards(ctx: CardContext, scope: Scope, programId: string, body: unknown) {
  const { quantity } = validate(printCardsSchema, body ?? {});
  return ctx.db.tx(async (tx) => {
    const program = await findProgram(tx, scope, programId);
    if (!program) throw notFound("Card program", programId);
    const problem = printingProblem(program, await countPrintedCardsLocked(tx, scope, program.id), quantity);
    if (problem) throw stateConflict(problem);
    const printed = Array.from({ length: quantity }, () => printCard(ctx, program));
    const rows = printed.map((p) => p.card);
    await insertPrintedCards(tx, scope, program.id, rows);
    return printed.map((p) => p.record);
  });
}
