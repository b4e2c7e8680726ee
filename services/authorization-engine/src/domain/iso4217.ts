/** ISO 4217 numeric codes of the currencies cards are issued in, as card network messages name currencies. */
export const ISO_NUMERIC_CURRENCY: Readonly<Record<string, string>> = { NGN: "566", USD: "840" };

/** The alphabetic code of a numeric one (e.g. "566" → "NGN"); undefined for a currency no card is issued in. */
export const currencyOfNumericCode = (numeric: string): string | undefined =>
  Object.entries(ISO_NUMERIC_CURRENCY).find(([, code]) => code === numeric)?.[0];
