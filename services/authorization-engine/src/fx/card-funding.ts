/**
 * Funding a card from an account in another currency, with an FX quote (`fxHash`). The ledger moves money in both
 * currencies, each movement balanced in its own: the debit source pays the quote's debitAmount into the fx-conversion
 * system account of its currency, and the fx-conversion account of the card's currency pays `amount` to the account
 * the card spends from. The quote is marked used in the same transaction.
 */
import type { Currency } from "@cardhold/contracts";
import type { Queryable } from "@cardhold/db";
import { AppError, notFound, stateConflict } from "@cardhold/platform";
import type { Scope } from "@cardhold/query";
import { findAccount, systemAccount, type AccountRow } from "../store/accounts.store";
import type { CardRow } from "../store/cards.store";
import { lockFxQuote, markFxQuoteUsed, type FxQuoteRow } from "../store/fx-quotes.store";
import { openLedger } from "../store/ledger.store";

/** Where a card's funding comes from, as card create and fund name it. */
export interface DebitRequest {
  debitSource: string;
  /** The currency of the debit source, when the request names it: it must be that account's. */
  debitCurrency?: Currency;
  /** The FX quote for funding across currencies; not read otherwise. */
  fxHash?: string;
}

/** The debit source: an account of this business that holds money (not virtual), in `debitCurrency` if named. */
export async function requireDebitSource(tx: Queryable, scope: Scope, r: DebitRequest): Promise<AccountRow> {
  const account = await findAccount(tx, scope, r.debitSource);
  if (!account) throw notFound("Account", r.debitSource);
  if (account.role === "virtual")
    throw stateConflict(`debitSource: account ${account.id} is virtual and holds no money`);
  if (r.debitCurrency && r.debitCurrency !== account.currency)
    throw stateConflict(`debitCurrency ${r.debitCurrency}: debitSource ${account.id} is in ${account.currency}`);
  return account;
}

const fxHashProblem = (status: number, code: string, message: string) =>
  new AppError(status, code, message, [{ path: "fxHash", message }]);

/** The quote named by `fxHash`, locked: it must exist, be unused, unexpired, and be for this pair and amount. */
async function requireUsableQuote(
  tx: Queryable,
  scope: Scope,
  funding: { source: AccountRow; card: CardRow; amount: number; fxHash: string | undefined },
): Promise<FxQuoteRow> {
  const { source, card, amount, fxHash } = funding;
  const pair = `${source.currency}→${card.currency}`;
  if (!fxHash)
    throw fxHashProblem(
      422,
      "fx-quote-required",
      `fxHash is required: debitSource ${source.id} is in ${source.currency} and card ${card.id} in ${card.currency}; ` +
        `get a quote with POST /tools/fx/quotes {from: "${source.currency}", to: "${card.currency}", amount: ${amount}}`,
    );
  const quote = await lockFxQuote(tx, scope, fxHash);
  if (!quote) throw fxHashProblem(404, "not-found", `fxHash: no FX quote ${fxHash} was found`);
  if (quote.used_at)
    throw fxHashProblem(422, "fx-quote-used", `fxHash: the quote was used already (${quote.used_for})`);
  if (quote.expired)
    throw fxHashProblem(422, "fx-quote-expired", `fxHash: the quote expired at ${quote.expires_at.toISOString()}`);
  const quoted = `${quote.from_currency}→${quote.to_currency}`;
  if (quoted !== pair || quote.amount !== amount)
    throw fxHashProblem(
      422,
      "fx-quote-mismatch",
      `fxHash: the quote is for ${quote.amount} ${quoted}; this funding is ${amount} ${pair} (amount in the card's currency)`,
    );
  return quote;
}

/** Funds `card` with `amount` (its currency) from `source` (another currency) at the quote `fxHash` names. */
export async function fundAcrossCurrencies(
  tx: Queryable,
  scope: Scope,
  funding: { source: AccountRow; card: CardRow; amount: number; fxHash: string | undefined },
): Promise<void> {
  const { source, card, amount } = funding;
  const quote = await requireUsableQuote(tx, scope, funding);
  const paidInto = await systemAccount(tx, scope, "fx-conversion", source.currency);
  const paidFrom = await systemAccount(tx, scope, "fx-conversion", card.currency);
  const ledger = await openLedger(tx, scope, {
    funded: [source.id, card.funding_account_id],
    system: [paidInto, paidFrom],
  });
  const description = `funding card ${card.id}: ${quote.debit_amount} ${source.currency} for ${amount} ${card.currency} at ${quote.rate}`;
  const movement = { kind: "card-funding", reference: card.id, description } as const;
  await ledger.move({ ...movement, from: source.id, to: paidInto, amount: quote.debit_amount });
  await ledger.move({ ...movement, from: paidFrom, to: card.funding_account_id, amount });
  await markFxQuoteUsed(tx, scope, quote.hash, card.id);
}
