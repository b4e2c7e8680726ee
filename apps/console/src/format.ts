/** How the console writes amounts, times and other values. */

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** An amount in minor units (kobo, cents) in its currency, e.g. money(150050, "NGN") → "NGN 1,500.50". */
export function money(minor: number | undefined | null, currency: string): string {
  if (minor === undefined || minor === null) return "—";
  let format = moneyFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat("en", { style: "currency", currency, currencyDisplay: "code" });
    moneyFormats.set(currency, format);
  }
  return format.format(minor / 100);
}

const dateTimeFormat = new Intl.DateTimeFormat("en-GB", {
  year: "numeric",
  month: "short",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

export function dateTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTimeFormat.format(date);
}

/** A time to the millisecond (for the steps of one authorization, a few milliseconds apart). */
export function preciseTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${dateTimeFormat.format(date)}.${String(date.getMilliseconds()).padStart(3, "0")}`;
}

export function milliseconds(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}

export function percent(fraction: number | null | undefined): string {
  if (fraction === null || fraction === undefined || Number.isNaN(fraction)) return "—";
  return `${(fraction * 100).toFixed(1)} %`;
}

/** The start of a long text, for answers and bodies shown in a table. */
export function excerpt(text: string | null | undefined, length = 200): string {
  if (!text) return "";
  return text.length > length ? `${text.slice(0, length)}…` : text;
}

/** A JSON value as indented text. */
export function pretty(value: unknown): string {
  if (value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}
