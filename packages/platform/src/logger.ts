import { pino, type DestinationStream, type Logger } from "pino";

export type { Logger };

/** Paths whose values never reach a log line: API keys, signing keys, card data. */
export const REDACTED_PATHS = [
  "authorization",
  "req.headers.authorization",
  'req.headers["x-operator-token"]',
  'req.headers["x-internal-token"]',
  "headers.authorization",
  "*.signingKey",
  "*.secret",
  "*.apiKey",
  "*.key",
  "*.pan",
  "*.cvv",
  "*.pin",
  "*.password",
  "*.token",
  "signingKey",
  "secret",
  "pan",
  "cvv",
  "pin",
];

export function createLogger(
  name: string,
  level = process.env.LOG_LEVEL ?? "info",
  destination?: DestinationStream,
): Logger {
  const options = {
    name,
    level,
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    base: { service: name },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination ? pino(options, destination) : pino(options);
}

/** Words a secret's key contains, and keys that are a secret as a whole: one list for both checks below. */
const SECRET_WORDS = ["secret", "password", "signingkey", "apikey", "token"];
const SECRET_NAMES = ["pan", "cvv", "pin", "key"];
const SECRET_KEY = new RegExp(`(${SECRET_WORDS.join("|")}|${SECRET_NAMES.map((n) => `^${n}$`).join("|")})`, "i");

const MAX_REDACTED_DEPTH = 20;
export const TOO_DEEP = "[not logged: nested deeper than 20 levels]";

/**
 * A copy of a JSON value with the values of secret-looking keys replaced, for request logs. Anything nested deeper
 * than 20 levels is replaced too, so the copy is always safe to serialize (and never carries an unchecked secret).
 */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_REDACTED_DEPTH) return TOO_DEEP;
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) ? "[redacted]" : redactSecrets(v, depth + 1);
  return out;
}

/** A JSON text's keys that SECRET_KEY would match (a key with an escape in it is caught by the backslash check). */
const SECRET_KEY_IN_TEXT = new RegExp(
  `"[^"]*(?:${SECRET_WORDS.join("|")})[^"]*"\\s*:|"(?:${SECRET_NAMES.join("|")})"\\s*:`,
  "i",
);
const QUOTE = 34;

/** Whether the text nests objects and arrays deeper than redactSecrets keeps (text without escapes only). */
function nestsTooDeep(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) inString = !inString;
    else if (inString) continue;
    else if (c === 123 || c === 91) {
      if (++depth > MAX_REDACTED_DEPTH) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/**
 * JSON text as redactSecrets would leave it, serialized: the text itself when it is valid JSON with no key that
 * could be a secret, no escape and nothing nested too deep (most answers: no copy, no second serialization); else
 * the redacted copy. Throws, as JSON.parse does, when the text is not JSON.
 */
export function redactedJsonText(text: string): string {
  const value: unknown = JSON.parse(text);
  const clean = !text.includes("\\") && !SECRET_KEY_IN_TEXT.test(text) && !nestsTooDeep(text);
  return clean ? text : JSON.stringify(redactSecrets(value));
}
