/** FX rates and quotes (`/tools/fx/*`): what converting costs now, and a stored quote that funds a card once. */
import { randomBytes } from "node:crypto";
import { fxQuoteRequestSchema, fxRatesQuerySchema, MAX_AMOUNT, type Currency } from "@cardhold/contracts";
import type { Db } from "@cardhold/db";
import { AppError, notFound, recordIdempotentAnswer, validate } from "@cardhold/platform";
import type { Scope } from "@cardhold/query";
import { debitFor, formatRate, type ScaledRate } from "../domain/fx";
import { insertFxQuote } from "../store/fx-quotes.store";
import { toQuoteRecord, toRateRecord } from "./fx-records";
import { ratesProviderFor, type FxRatesProvider } from "./rates-provider";

/** How long a quote may fund a card. */
export const FX_QUOTE_LIFETIME_MS = 5 * 60 * 1000;

export interface FxContext {
  db: Db;
  /** The live-mode rates; none: live mode refuses FX (403 fx-provider-not-configured). */
  liveRates: FxRatesProvider | undefined;
}

/** `GET /tools/fx/rates`: every pair (a list), or with from and to that one pair (a record). */
export async function listRates(ctx: FxContext, scope: Scope, query: unknown) {
  const { from, to } = validate(fxRatesQuerySchema, query, "query");
  const rates = await ratesProviderFor(scope, ctx.liveRates).rates();
  const matching = rates.filter((r) => (!from || r.from === from) && (!to || r.to === to));
  if (from && to) {
    if (!matching[0]) throw notFound("FX rate", `${from}→${to}`);
    return { code: "success", data: toRateRecord(matching[0]) };
  }
  return { code: "success", data: matching.map(toRateRecord), metadata: { hasMore: false } };
}

async function rateOf(provider: FxRatesProvider, from: Currency, to: Currency): Promise<ScaledRate> {
  const found = (await provider.rates()).find((r) => r.from === from && r.to === to);
  if (!found) throw notFound("FX rate", `${from}→${to}`);
  return found.rate;
}

/** 32 random bytes, hex: the quote's id, which is all it takes to spend it. */
const newQuoteHash = () => randomBytes(32).toString("hex");

/**
 * `POST /tools/fx/quotes`: what `amount` of `to` costs in `from` at the current rate (the exact cost rounded up to a
 * whole minor unit), stored for FX_QUOTE_LIFETIME_MS.
 */
export async function createQuote(ctx: FxContext, scope: Scope, body: unknown) {
  const request = validate(fxQuoteRequestSchema, body);
  const provider = ratesProviderFor(scope, ctx.liveRates);
  const rate = await rateOf(provider, request.from, request.to);
  const debit = debitFor({ from: request.from, to: request.to, rate }, request.amount);
  if (debit > BigInt(MAX_AMOUNT))
    throw new AppError(
      422,
      "amount-too-large",
      `${request.amount} ${request.to} would cost ${debit} ${request.from}, more than the largest amount (${MAX_AMOUNT})`,
    );
  return ctx.db.tx(async (tx) => {
    const quote = {
      hash: newQuoteHash(),
      from_currency: request.from,
      to_currency: request.to,
      rate: formatRate(rate),
      provider: provider.name,
      amount: request.amount,
      debit_amount: Number(debit),
    };
    const record = toQuoteRecord(await insertFxQuote(tx, scope, quote, FX_QUOTE_LIFETIME_MS));
    await recordIdempotentAnswer(tx, 201, { code: "success", data: record });
    return record;
  });
}
