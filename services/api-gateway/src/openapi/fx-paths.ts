/** FX (the authorization engine's src/fx): rates, and quotes whose hash funds a card across currencies. */
import { CURRENCIES, fxQuoteRequestSchema } from "@cardhold/contracts";
import { one, operation, write } from "./operations";
import { query } from "./parameters";
import { fxQuoteRecord, fxRateRecord } from "./records/fx";
import { error } from "./responses";
import { page, ref, type Paths } from "./schema";

const AT = "2025-03-14T18:22:51.000Z";
const LATER = "2025-03-14T18:27:51.000Z";

const noLiveProvider = {
  "403": error(
    "Forbidden",
    "fx-provider-not-configured: a live key, and no live FX rates provider is configured (test keys use the " +
      "sandbox rates); or a restricted key lacks the permission",
  ),
};

const currency = (side: string) => query(side, `The ${side} currency`, { type: "string", enum: [...CURRENCIES] });

const quoteRequest = { from: "NGN", to: "USD", amount: 1_100 };
const quote = {
  object: "fx.quote",
  hash: "9f2c4be1d07a5e3f6a8b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f",
  ...quoteRequest,
  rate: "0.00066006",
  debitAmount: 1_666_516,
  expiresAt: LATER,
  createdAt: AT,
};

export function fxPaths(): Paths {
  return {
    "/tools/fx/rates": {
      get: operation({
        summary: "FX rates: every pair, or with from and to the one pair",
        description:
          "Each direction of a pair has its own rate, spread included. Test mode quotes the sandbox's fixed rates: " +
          "mid-market 1 USD = 1,500 NGN with a 1 % spread, so USD→NGN 1485 and NGN→USD 0.00066006 (1/1515).",
        parameters: [currency("from"), currency("to")],
        returns: "With from and to: that pair's rate; otherwise every pair matching the one given",
        schema: { oneOf: [one(fxRateRecord), page(ref(fxRateRecord))] },
        example: { code: "success", data: { object: "fx.rate", from: "USD", to: "NGN", rate: "1485" } },
        responses: noLiveProvider,
      }),
    },
    "/tools/fx/quotes": {
      post: write("Quote a conversion: what amount (in to) costs in from", fxQuoteRequestSchema, fxQuoteRecord, {
        status: "201",
        description:
          "amount is in the `to` currency (NGN→USD 1100 = $11); debitAmount is what the debit source pays, rounded " +
          "up to a whole minor unit. The quote is good for 5 minutes and funds one card: send its hash as `fxHash` " +
          "with POST /cards or POST /cards/{id}/fund when debitSource is in `from` and the card in `to`.",
        bodyExample: quoteRequest,
        example: { code: "success", data: quote },
        responses: {
          "422": error("StateConflict", "amount-too-large: the cost would exceed the largest amount"),
          ...noLiveProvider,
        },
      }),
    },
  };
}
