/**
 * FX arithmetic, pure and exact. A rate says how many units of the `to` currency one unit of the `from` currency buys
 * (USD→NGN 1485: one dollar buys ₦1,485), held as a whole number of 10^-8 (8 decimals), never as a float. Amounts are
 * integers of minor units. Every rounding goes the platform's way: a conversion never pays out more than it takes in.
 */

export const RATE_DECIMALS = 8;
const RATE_ONE = 10n ** BigInt(RATE_DECIMALS);
const BASIS_POINTS = 10_000n;

/** A rate as a whole number of 10^-8: 1485 is 148_500_000_000n, 0.00066006 is 66_006n. */
export type ScaledRate = bigint;

/** Digits of each currency's minor unit (kobo, cents): an amount of 150 is 1.50. */
export const MINOR_DIGITS: Readonly<Record<string, number>> = { NGN: 2, USD: 2 };

function minorDigitsOf(currency: string): bigint {
  const digits = MINOR_DIGITS[currency];
  if (digits === undefined) throw new RangeError(`no minor unit is known for currency ${currency}`);
  return BigInt(digits);
}

const RATE_TEXT = new RegExp(`^(\\d{1,20})(?:\\.(\\d{1,${RATE_DECIMALS}}))?$`);

/** "1485" or "0.00066006" → a scaled rate; more than 8 decimals, a sign or zero is refused. */
export function parseRate(text: string): ScaledRate {
  const match = RATE_TEXT.exec(text);
  if (!match)
    throw new RangeError(`a rate is a positive decimal with at most ${RATE_DECIMALS} decimals, not "${text}"`);
  const rate = BigInt(match[1]!) * RATE_ONE + BigInt((match[2] ?? "").padEnd(RATE_DECIMALS, "0"));
  if (rate <= 0n) throw new RangeError(`a rate must be above zero, not "${text}"`);
  return rate;
}

/** A scaled rate as the shortest exact decimal: 148_500_000_000n → "1485", 66_006n → "0.00066006". */
export function formatRate(rate: ScaledRate): string {
  const whole = rate / RATE_ONE;
  const fraction = (rate % RATE_ONE).toString().padStart(RATE_DECIMALS, "0").replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}

export interface Conversion {
  from: string;
  to: string;
  rate: ScaledRate;
}

/**
 * amount_to = debit × rate × 10^toDigits / (10^8 × 10^fromDigits): the exact relation between the two amounts,
 * as a numerator and a denominator so that neither side is rounded before the caller decides which way.
 */
function scale(c: Conversion): { times: bigint; per: bigint } {
  return {
    times: c.rate * 10n ** minorDigitsOf(c.to),
    per: RATE_ONE * 10n ** minorDigitsOf(c.from),
  };
}

function checkAmount(amount: number): bigint {
  if (!Number.isSafeInteger(amount) || amount < 0)
    throw new RangeError(`amount must be a whole number of minor units, not ${amount}`);
  return BigInt(amount);
}

/**
 * What the customer pays, in minor units of `from`, to receive `amount` minor units of `to`: the exact cost rounded
 * up to the next minor unit (the platform never gives away a fraction of one). The smallest debit that buys `amount`.
 */
export function debitFor(c: Conversion, amount: number): bigint {
  const { times, per } = scale(c);
  const exact = checkAmount(amount) * per;
  return (exact + times - 1n) / times;
}

/** What `debit` minor units of `from` buy, in minor units of `to`: rounded down. */
export function proceedsOf(c: Conversion, debit: number | bigint): bigint {
  const { times, per } = scale(c);
  const taken = typeof debit === "bigint" ? debit : checkAmount(debit);
  return (taken * times) / per;
}

/**
 * The two rates a mid-market rate and a spread give (1 base = mid quote; spread in basis points, 100 = 1 %), each
 * rounded down (in the platform's favour): base→quote at mid × (1 − spread), quote→base at 1 / (mid × (1 + spread)).
 * USD/NGN 1500 with 100 bps: USD→NGN 1485, NGN→USD 1/1515 = 0.00066006.
 */
export function ratesAroundMid(mid: ScaledRate, spreadBps: number): { forward: ScaledRate; backward: ScaledRate } {
  if (!Number.isSafeInteger(spreadBps) || spreadBps < 0 || spreadBps >= Number(BASIS_POINTS))
    throw new RangeError(`spread must be whole basis points from 0 to 9999, not ${spreadBps}`);
  if (mid <= 0n) throw new RangeError("a mid rate must be above zero");
  const spread = BigInt(spreadBps);
  const forward = (mid * (BASIS_POINTS - spread)) / BASIS_POINTS;
  const backward = (RATE_ONE * RATE_ONE * BASIS_POINTS) / (mid * (BASIS_POINTS + spread));
  if (forward <= 0n || backward <= 0n) throw new RangeError("the rates round to zero at 8 decimals");
  return { forward, backward };
}
