/** FX records, as the authorization engine's src/fx/fx-records.ts writes them (absent values left out). */
import { z } from "zod";
import { currencySchema } from "@cardhold/contracts";
import { named } from "../schema";
import { minorUnits, time } from "./common";

const rate = z
  .string()
  .regex(/^\d+(\.\d{1,8})?$/)
  .describe("Units of `to` that one unit of `from` buys, spread included: an exact decimal (at most 8 decimals)");

export const fxRateRecord = named(
  "FxRate",
  z.object({ object: z.literal("fx.rate"), from: currencySchema, to: currencySchema, rate }),
);

export const fxQuoteRecord = named(
  "FxQuote",
  z.object({
    object: z.literal("fx.quote"),
    hash: z
      .string()
      .describe(
        "The quote's id: send it as `fxHash` to fund a card from an account in `from` (once, before expiresAt)",
      ),
    from: currencySchema,
    to: currencySchema,
    rate,
    amount: minorUnits("What the card is funded with, in `to`"),
    debitAmount: minorUnits("What the debit source pays, in `from`: amount ÷ rate rounded up to a whole minor unit"),
    expiresAt: time,
    usedAt: time.optional().describe("When the quote funded a card; absent while unused"),
    createdAt: time,
  }),
);
