import { z } from "zod";

/** RFC 9110 `token`: the characters an HTTP field (header) name is made of. */
const HEADER_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** How many extra names a webhook may give its signature. */
export const MAX_SIGNATURE_HEADERS = 5;

/**
 * Names a delivery's own headers use, or that HTTP gives a meaning to (framing, connection, proxies): a copy of the
 * signature under one of them would clash with what the platform or the HTTP stack sends. Compared in lower case.
 */
const RESERVED_NAMES = new Set([
  "service-signature",
  "content-type",
  "content-length",
  "host",
  "user-agent",
  "x-cardhold-event-id",
  "traceparent",
  "tracestate",
  "baggage",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "expect",
  "date",
  "via",
  "forwarded",
  "authorization",
  "cookie",
  "accept",
  "accept-encoding",
  "retry-after",
]);
const RESERVED_PREFIXES = [
  "content-",
  "idempotency-",
  "idempotent-",
  "webhook-",
  "x-cardhold-",
  "proxy-",
  "x-forwarded-",
];

/** Whether a header name is one a webhook may not carry its signature under (case-insensitive). */
export function isReservedHeaderName(name: string): boolean {
  const lower = name.toLowerCase();
  return RESERVED_NAMES.has(lower) || RESERVED_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

const signatureHeaderName = z
  .string()
  .min(1, "must not be empty")
  .max(64, "must be at most 64 characters")
  .regex(HEADER_TOKEN, "must be an HTTP header name: letters, digits and !#$%&'*+-.^_`|~ only (no spaces or colons)")
  .refine((name) => !isReservedHeaderName(name), {
    error: (issue) => `"${String(issue.input)}" is a header the platform or HTTP itself sets; choose another name`,
  });

/**
 * Extra header names each delivery carries the `Service-Signature` value under (for receivers written to read the
 * signature from another header, e.g. `Acme-Signature`). Case-insensitive, as HTTP header names are; kept as written.
 */
export const signatureHeadersSchema = z
  .array(signatureHeaderName)
  .max(MAX_SIGNATURE_HEADERS, `must name at most ${MAX_SIGNATURE_HEADERS} headers`)
  .refine(
    (names) => new Set(names.map((n) => n.toLowerCase())).size === names.length,
    "must not repeat a header name (header names are case-insensitive)",
  );
