/**
 * The NUBAN check digit (CBN, "Revised standards on NUBAN for banks and other financial institutions", 2020): a
 * 10-digit account number is a 9-digit serial and a check digit computed over the institution's 6-digit code and the
 * serial with the weights 3,7,3 repeated: check = 10 − (Σ digit × weight mod 10), and 10 becomes 0.
 * The institution code is the bank's CBN code made 6 digits: a deposit money bank's 3-digit code gets the prefix
 * `000` (which leaves the 2010 algorithm over code + serial, weights 3,7,3,3,7,3,3,7,3,3,7,3, unchanged), another
 * financial institution's 5-digit code the prefix `9`.
 */

export const NUBAN = /^\d{10}$/;
const WEIGHTS = [3, 7, 3];

/** The 6-digit institution code of a 3-digit (bank) or 5-digit (other institution) CBN code; undefined otherwise. */
export function institutionCode(cbnCode: string): string | undefined {
  if (/^\d{3}$/.test(cbnCode)) return `000${cbnCode}`;
  if (/^\d{5}$/.test(cbnCode)) return `9${cbnCode}`;
  return undefined;
}

/** The check digit of a 9-digit serial at the institution with this CBN code. */
export function nubanCheckDigit(cbnCode: string, serial: string): number {
  const institution = institutionCode(cbnCode);
  if (!institution) throw new RangeError(`a CBN bank code has 3 or 5 digits, not "${cbnCode}"`);
  if (!/^\d{9}$/.test(serial)) throw new RangeError(`a NUBAN serial has 9 digits, not "${serial}"`);
  const digits = [...(institution + serial)].map(Number);
  const sum = digits.reduce((total, digit, i) => total + digit * WEIGHTS[i % WEIGHTS.length]!, 0);
  return (10 - (sum % 10)) % 10;
}

/** Whether a 10-digit account number's last digit is its check digit at the institution with this CBN code. */
export function isValidNuban(cbnCode: string, accountNumber: string): boolean {
  if (!NUBAN.test(accountNumber) || !institutionCode(cbnCode)) return false;
  return nubanCheckDigit(cbnCode, accountNumber.slice(0, 9)) === Number(accountNumber[9]);
}

/** The 10-digit account number of a serial at the institution with this CBN code. */
export const nubanOf = (cbnCode: string, serial: string) => `${serial}${nubanCheckDigit(cbnCode, serial)}`;
