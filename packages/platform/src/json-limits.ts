/**
 * Limits on the shape of JSON the platform accepts from outside (API bodies, receiver answers). Deeply nested JSON is
 * cheap to send and expensive to handle: every recursive walk over it (JSON.stringify, redaction, validation) can
 * overflow the stack. Checking the raw text once, iteratively, before anything parses it keeps the rest safe.
 */
export const MAX_JSON_DEPTH = 32;

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/** The deepest nesting of objects and arrays in JSON text (0 for a scalar), counted in one pass without recursion. */
export function jsonTextDepth(text: string | Uint8Array): number {
  const at = typeof text === "string" ? (i: number) => text.charCodeAt(i) : (i: number) => text[i]!;
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = at(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) deepest = Math.max(deepest, ++depth);
    else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return deepest;
}

/** The deepest nesting of an already parsed value, walked with an explicit stack; stops counting past `limit`. */
export function valueDepth(value: unknown, limit = MAX_JSON_DEPTH): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== "object") continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > limit) return deepest;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** JSON.parse, or undefined when the text is not JSON or nests deeper than maxDepth. */
export function parseJsonWithin(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  if (jsonTextDepth(text) > maxDepth) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const SURROGATE_ESCAPE = /(\\+)u([dD][89a-fA-F][0-9a-fA-F]{2})/g;

/**
 * Whether JSON text escapes a lone UTF-16 surrogate (`"\ud800"` with no partner): JSON.parse accepts it, but such a
 * string is not Unicode text and PostgreSQL refuses it. Only escapes can carry one: raw bytes are decoded as UTF-8.
 */
export function hasLoneSurrogateEscape(text: string): boolean {
  if (!/\\u[dD][89a-fA-F]/.test(text)) return false;
  let expectLowAt = -1;
  for (const match of text.matchAll(SURROGATE_ESCAPE)) {
    if (match[1]!.length % 2 === 0) continue; // an escaped backslash followed by "u…": plain text
    const at = match.index! + match[1]!.length - 1;
    const code = parseInt(match[2]!, 16);
    const isLow = code >= 0xdc00;
    if (isLow !== (at === expectLowAt)) return true;
    expectLowAt = isLow ? -1 : at + 6;
  }
  return expectLowAt !== -1;
}
