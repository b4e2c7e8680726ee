import { malformedFilter } from "./errors";
import { OPERATORS, type Operator } from "./types";

/** A filter expression as written, before it is checked against a resource. */
export interface RawExpression {
  field: string;
  op: Operator;
  value: string;
  /** The value was quoted: it stays a string even when it looks numeric. */
  quoted: boolean;
}

const FIELD = /[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_-]+)*/y;
const SHORTHANDS: Array<[string, Operator]> = [
  ["!=", "ne"],
  [">=", "gte"],
  ["<=", "lte"],
  [":", "eq"],
  ["=", "eq"],
  [">", "gt"],
  ["<", "lt"],
  ["~", "like"],
];

/**
 * Splits a filter parameter into expressions: `field|op|value` or a shorthand, separated by whitespace. A value in
 * `"…"` or `<…>` may hold spaces; inside it `\"` (resp. `\>`) is the closing character and `\\` a backslash, any
 * other backslash stays as written (so `name~"^\d+ x"` is the regular expression `^\d+ x`). Anything that does not
 * read is the interface's malformed-filter error.
 */
export function tokenizeFilter(input: string): RawExpression[] {
  const expressions: RawExpression[] = [];
  let i = 0;
  while (i < input.length) {
    if (/\s/.test(input[i]!)) {
      i++;
      continue;
    }
    const { expression, end } = readExpression(input, i);
    expressions.push(expression);
    i = end;
  }
  return expressions;
}

function readExpression(input: string, start: number): { expression: RawExpression; end: number } {
  let i = start;
  const negated = input[i] === "-";
  if (negated) i++;
  FIELD.lastIndex = i;
  const field = FIELD.exec(input)?.[0];
  if (!field) throw malformedFilter();
  i += field.length;
  let op: Operator;
  if (input[i] === "|") {
    // `field|op|value` (interface.md) or `field||OP||value` (the original provider's intro), either case.
    const bar = input.startsWith("||", i) ? "||" : "|";
    const close = input.indexOf(bar, i + bar.length);
    const word = close < 0 ? "" : operatorNamed(input.slice(i + bar.length, close));
    if (negated || !word) throw malformedFilter();
    op = word;
    i = close + bar.length;
  } else {
    const shorthand = SHORTHANDS.find(([symbol]) => input.startsWith(symbol, i));
    if (!shorthand) throw malformedFilter();
    op = shorthand[1];
    i += shorthand[0].length;
    if (negated) {
      if (op === "eq" && shorthand[0] === ":") op = "ne";
      else if (op === "like") op = "nlike";
      else throw malformedFilter();
    }
  }
  const { value, quoted, end } = readValue(input, i);
  return { expression: { field, op, value, quoted }, end };
}

/** An operator word in either case; `neq` is the original provider's name for `ne`. */
function operatorNamed(word: string): Operator | undefined {
  const lower = word.toLowerCase();
  const name = lower === "neq" ? "ne" : lower;
  return (OPERATORS as readonly string[]).includes(name) ? (name as Operator) : undefined;
}

function readValue(input: string, start: number): { value: string; quoted: boolean; end: number } {
  const open = input[start];
  if (open === '"' || open === "<") {
    const close = open === '"' ? '"' : ">";
    let value = "";
    for (let i = start + 1; i < input.length; i++) {
      const c = input[i]!;
      const next = input[i + 1];
      if (c === "\\" && (next === close || next === "\\")) {
        value += next;
        i++;
      } else if (c === close) {
        const end = i + 1;
        if (end < input.length && !/\s/.test(input[end]!)) throw malformedFilter();
        return { value, quoted: true, end };
      } else {
        value += c;
      }
    }
    throw malformedFilter();
  }
  let end = start;
  while (end < input.length && !/\s/.test(input[end]!)) end++;
  if (end === start) throw malformedFilter();
  return { value: input.slice(start, end), quoted: false, end };
}
