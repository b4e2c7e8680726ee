/** FX rates and quote rows → the records the API answers with. */
import { formatRate, parseRate } from "../domain/fx";
import { present, type Json } from "../record-shape";
import type { FxQuoteRow } from "../store/fx-quotes.store";
import type { FxRate } from "./rates-provider";

export function toRateRecord(rate: FxRate): Json {
  return { object: "fx.rate", from: rate.from, to: rate.to, rate: formatRate(rate.rate) };
}

export function toQuoteRecord(row: FxQuoteRow): Json {
  return present({
    object: "fx.quote",
    hash: row.hash,
    from: row.from_currency,
    to: row.to_currency,
    rate: formatRate(parseRate(row.rate)),
    amount: row.amount,
    debitAmount: row.debit_amount,
    expiresAt: row.expires_at.toISOString(),
    usedAt: row.used_at?.toISOString(),
    createdAt: row.created_at.toISOString(),
  });
}
