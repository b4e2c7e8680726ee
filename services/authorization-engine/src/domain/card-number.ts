/**
 * Card numbers: a PAN is the network's BIN, random digits and a Luhn check digit; an expiry is MM/YY some years
 * ahead; a CVV is three digits. Pure: randomness comes in as a function returning an integer below its argument.
 */
export type Network = "verve" | "mastercard";

/** Issuer identification numbers this sandbox issues under (verve's 506099…, mastercard's 539983…). */
export const BINS: Record<Network, string> = { verve: "506099", mastercard: "539983" };
export const PAN_LENGTH = 16;
export const CARD_LIFETIME_YEARS = 3;

export type RandomInt = (below: number) => number;

/** The digit that makes `digits` + it pass the Luhn check. */
export function luhnCheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

export function passesLuhn(pan: string): boolean {
  return /^\d{2,19}$/.test(pan) && luhnCheckDigit(pan.slice(0, -1)) === Number(pan.at(-1));
}

const randomDigits = (count: number, random: RandomInt) =>
  Array.from({ length: count }, () => String(random(10))).join("");

export function generatePan(network: Network, random: RandomInt): string {
  const body = BINS[network] + randomDigits(PAN_LENGTH - BINS[network].length - 1, random);
  return body + String(luhnCheckDigit(body));
}

export const generateCvv = (random: RandomInt) => randomDigits(3, random);

/** MM/YY of the last month the card is valid: the issue month, CARD_LIFETIME_YEARS later. */
export function expiryFor(issuedAt: Date): string {
  const month = String(issuedAt.getUTCMonth() + 1).padStart(2, "0");
  const year = String((issuedAt.getUTCFullYear() + CARD_LIFETIME_YEARS) % 100).padStart(2, "0");
  return `${month}/${year}`;
}
