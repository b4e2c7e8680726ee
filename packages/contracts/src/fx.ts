import { z } from "zod";
import { positiveMinorUnits } from "./cards";
import { currencySchema } from "./ledger";

/** FX tools (compatibility notes, "Tools"): rates, and quotes whose hash funds a card across currencies. */

const differentCurrencies = (pair: { from?: string; to?: string }) => pair.from === undefined || pair.from !== pair.to;
const sameCurrency = { path: ["to"], message: "must differ from from" };

/** `GET /tools/fx/rates?from=USD&to=NGN`: both optional; with both, the one pair. */
export const fxRatesQuerySchema = z
  .object({ from: currencySchema.optional(), to: currencySchema.optional() })
  .refine(differentCurrencies, sameCurrency);
export type FxRatesQuery = z.infer<typeof fxRatesQuerySchema>;

/** `POST /tools/fx/quotes`: what it costs in `from` to get `amount` (minor units of `to`): NGN→USD 1100 = $11. */
export const fxQuoteRequestSchema = z
  .object({
    from: currencySchema.describe("The currency paid with (the debit source's)"),
    to: currencySchema.describe("The currency received (the card's)"),
    amount: positiveMinorUnits.describe("Minor units of `to`: the amount the card is funded with"),
  })
  .refine(differentCurrencies, sameCurrency);
export type FxQuoteRequest = z.infer<typeof fxQuoteRequestSchema>;
