/**
 * What the issuer checks of the card data a network message carries, before the engine is asked: the expiry date
 * (field 14) and the CVV2 (field 48, subelement 92), each only where present. The PIN block (field 52) is not checked:
 * there is no HSM to verify it under (README.md). Pure.
 */
import { timingSafeEqual } from "node:crypto";

/** When a card whose expiry is `MM/YY` stops being valid: the first instant of the month after. */
export function expiresAt(expiry: string): number {
  const [month, year] = expiry.split("/").map(Number) as [number, number];
  return Date.UTC(2000 + year, month, 1);
}

/** The card's expiry as field 14 writes it: YYMM. */
export const asField14 = (expiry: string) => `${expiry.slice(3, 5)}${expiry.slice(0, 2)}`;

/** Whether the card cannot be used for its expiry: past it, or field 14 names another one. */
export function expiryRefused(cardExpiry: string, field14: string | undefined, now: number): boolean {
  if (now >= expiresAt(cardExpiry)) return true;
  return field14 !== undefined && field14 !== asField14(cardExpiry);
}

/** Whether the CVV2 given is the card's, compared in constant time. */
export function cvv2Matches(given: string, cardCvv: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(cardCvv);
  return a.length === b.length && timingSafeEqual(a, b);
}
