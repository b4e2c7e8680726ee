/**
 * Errors that mean the database cannot be reached right now (stopped, restarting, recovering after a crash, the
 * connection cut), as opposed to a statement that failed. A request that meets one gets 503 with Retry-After, which a
 * client may retry, instead of a 500 that says something is broken.
 */

/** Connection failures from the operating system, as the driver passes them on. */
const UNREACHABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ENOENT", "EPIPE", "ETIMEDOUT"]);

/**
 * PostgreSQL's SQLSTATEs for a server going away or not yet there: class 08 (connection exception) and 57P01–57P03
 * (shut down by an operator, crashed, cannot connect now: starting up or recovering).
 */
const UNAVAILABLE_STATES = new Set(["57P01", "57P02", "57P03"]);

/** The driver's own words when the server closed the connection or the pool could not get one in time. */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /^Client has encountered a connection error/,
];

export function isDatabaseUnavailable(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (
    typeof code === "string" &&
    (UNREACHABLE_CODES.has(code) || UNAVAILABLE_STATES.has(code) || code.startsWith("08"))
  )
    return true;
  return typeof message === "string" && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message));
}
