/** Reading filter values: numbers, dates, booleans, lists. */
import { invalidQuery, shown } from "./errors";
import type { Scalar } from "./types";

export const NUMERIC = /^-?\d+(\.\d+)?$/;
const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;
/** Epoch milliseconds of 0001-01-01 and of 9999-12-31T23:59:59.999Z: dates PostgreSQL and ISO strings agree on. */
const MIN_TIME = -62135596800000;
const MAX_TIME = 253402300799999;

/** Unquoted numeric text (`-?\d+(\.\d+)?`) is a number; anything else, and anything quoted, stays a string. */
export function scalar(text: string, quoted: boolean): Scalar {
  if (quoted || !NUMERIC.test(text)) return text;
  const value = Number(text);
  if (!Number.isFinite(value)) throw invalidQuery(`"${text.slice(0, 40)}…" is too large a number`);
  return value;
}

/** A number for a number field; quoting does not matter there. */
export function numberValue(text: string, field: string): number {
  if (!NUMERIC.test(text)) throw invalidQuery(`field "${shown(field)}" takes a number, not "${shown(text)}"`);
  return scalar(text, false) as number;
}

export function booleanValue(text: string, what: string): boolean {
  if (text !== "true" && text !== "false") throw invalidQuery(`${what} takes true or false, not "${shown(text)}"`);
  return text === "true";
}

/**
 * An ISO 8601 date or date-time (a real calendar day and time; without a zone it is UTC) or epoch milliseconds,
 * in one canonical form: `2023-03-14T00:00:00.000Z`.
 */
export function dateValue(text: string, field: string): string {
  const bad = () =>
    invalidQuery(`"${shown(text)}" is not an ISO 8601 date (or epoch milliseconds) for field "${shown(field)}"`);
  let time: number;
  if (NUMERIC.test(text)) {
    time = Math.trunc(Number(text));
  } else {
    const m = ISO_DATE.exec(text);
    if (!m) throw bad();
    const [, y, mo, d, h = "00", mi = "00", s = "00", fraction = "", zone = "Z"] = m;
    const day = new Date(0);
    day.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
    const validDay =
      day.getUTCMonth() === Number(mo) - 1 && day.getUTCDate() === Number(d) && Number(y) === day.getUTCFullYear();
    if (!validDay || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) throw bad();
    const offset = zone.toUpperCase() === "Z" ? "Z" : `${zone.slice(0, 3)}:${zone.slice(3).replace(":", "") || "00"}`;
    if (offset !== "Z" && (Number(offset.slice(1, 3)) > 23 || Number(offset.slice(4)) > 59)) throw bad();
    time = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}${fraction.slice(0, 4)}${offset}`);
  }
  if (!Number.isFinite(time) || time < MIN_TIME || time > MAX_TIME) throw bad();
  return new Date(time).toISOString();
}

/** A comma-separated list (in, nin, all) without empty items. */
export function listItems(text: string, op: string): string[] {
  const items = text.split(",");
  if (items.some((item) => item === ""))
    throw invalidQuery(`${op} takes a comma-separated list without empty items, not "${shown(text)}"`);
  return items;
}

export function wholeNumber(text: string, op: string): number {
  if (!/^\d{1,9}$/.test(text)) throw invalidQuery(`${op} takes a whole number, not "${shown(text)}"`);
  return Number(text);
}

/** A like / nlike pattern: rejected here when even JavaScript cannot read it (PostgreSQL's own check still applies). */
export function patternValue(text: string): string {
  try {
    new RegExp(text);
  } catch {
    throw invalidQuery(`"${shown(text)}" is not a valid regular expression`);
  }
  return text;
}
