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

const SECRET_KEY = /(secret|password|signingkey|apikey|token|^pan$|^cvv$|^pin$|^key$)/i;

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
