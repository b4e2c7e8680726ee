/**
 * Fee arithmetic, pure: what a fee charges on an amount, in whole minor units. Shared by the authorization engine
 * (card program transaction fees) and the bill-service (the configured bill-payment fee), so both charge alike.
 */

export interface FeeTerms {
  structure: "flat" | "percentage";
  /** Flat: minor units. Percentage: a percentage of the amount (1.5 = 1.5 %), at most 4 decimals. */
  value: number;
  /** The most a percentage fee charges, in minor units; null: no limit. */
  cap: number | null;
}

/** No fee: what a program charges when it names none. */
export const NO_FEE: FeeTerms = { structure: "flat", value: 0, cap: null };

/** A percentage with 4 decimals is a whole number of 1/10,000 %. */
const PERCENT_STEPS = 10_000n;
const WHOLE = 100n * PERCENT_STEPS;

/**
 * The fee on `amount` (minor units): a flat fee's value whatever the amount; a percentage fee's
 * `amount × value / 100` rounded half up to a whole minor unit (1.5 % of 100 is 2, of 33 is 0), then at most `cap`.
 * Worked in integers: amount (up to 10^15) × percentage steps (up to 10^6) is beyond a number's exact range.
 */
export function feeCharge(terms: FeeTerms, amount: number): number {
  if (!Number.isSafeInteger(amount) || amount < 0)
    throw new RangeError(`amount must be a whole number of minor units, not ${amount}`);
  if (terms.structure === "flat") return terms.value;
  const steps = BigInt(Math.round(terms.value * Number(PERCENT_STEPS)));
  const rounded = Number((2n * BigInt(amount) * steps + WHOLE) / (2n * WHOLE));
  return terms.cap === null ? rounded : Math.min(rounded, terms.cap);
}
