/** Where FX rates come from: a provider per mode. Test mode quotes the sandbox's fixed rates; live mode needs a real one. */
import type { Currency } from "@cardhold/contracts";
import { AppError } from "@cardhold/platform";
import type { Scope } from "@cardhold/query";
import { parseRate, ratesAroundMid, type ScaledRate } from "../domain/fx";

/** One direction of a pair: one unit of `from` buys `rate` units of `to` (8 decimals, see domain/fx.ts). */
export interface FxRate {
  from: Currency;
  to: Currency;
  rate: ScaledRate;
}

export interface FxRatesProvider {
  /** Recorded on every quote made with its rates. */
  readonly name: string;
  /** Every pair it quotes, each direction its own rate (the customer's, spread included). */
  rates(): Promise<FxRate[]>;
}

/**
 * The sandbox's rates, fixed so that tests and integrations can compute what to expect: mid-market 1 USD = 1,500 NGN,
 * with a spread of 1 % (100 basis points) each way. Paying dollars for naira: 1 USD buys 1,485 NGN. Paying naira for
 * dollars: 1 USD costs 1,515 NGN (rate 1/1515 = 0.00066006, rounded down at 8 decimals).
 */
export const SANDBOX_MID_RATES: ReadonlyArray<{ base: Currency; quote: Currency; mid: string }> = [
  { base: "USD", quote: "NGN", mid: "1500" },
];
export const SANDBOX_SPREAD_BPS = 100;

export const sandboxRatesProvider: FxRatesProvider = {
  name: "sandbox",
  async rates() {
    return SANDBOX_MID_RATES.flatMap(({ base, quote, mid }) => {
      const { forward, backward } = ratesAroundMid(parseRate(mid), SANDBOX_SPREAD_BPS);
      return [
        { from: base, to: quote, rate: forward },
        { from: quote, to: base, rate: backward },
      ];
    });
  },
};

/**
 * The provider for the caller's mode: the sandbox in test mode, the configured one in live mode. Live mode without a
 * provider refuses rather than quote made-up rates on real money: a 403, as the simulation refuses live keys (a 5xx
 * would invite retries that cannot succeed until an operator configures a provider).
 */
export function ratesProviderFor(scope: Scope, live: FxRatesProvider | undefined): FxRatesProvider {
  if (scope.mode === "test") return sandboxRatesProvider;
  if (live) return live;
  throw new AppError(
    403,
    "fx-provider-not-configured",
    "FX rates and quotes are not available in live mode: no live FX rates provider is configured " +
      "(the authorization engine's liveFxRates option). Test keys use the sandbox rates.",
  );
}
