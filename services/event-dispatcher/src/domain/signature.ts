import { createHmac, timingSafeEqual } from "node:crypto";

/** `Service-Signature`: hex HMAC-SHA512 of the exact body bytes, keyed with the webhook's signing key. */
export const SIGNATURE_HEADER = "service-signature";

export function sign(body: Buffer | string, signingKey: string): string {
  return createHmac("sha512", signingKey).update(body).digest("hex");
}

/**
 * A delivery's signature headers: `Service-Signature`, and the same value under each extra name the webhook gives
 * (receivers written to read it from another header, e.g. `Acme-Signature`). Names as the registry checked them.
 */
export function signatureHeaders(
  body: Buffer | string,
  signingKey: string,
  extraNames: readonly string[] = [],
): Record<string, string> {
  const signature = sign(body, signingKey);
  return Object.fromEntries([...extraNames, SIGNATURE_HEADER].map((name) => [name, signature]));
}

export function verify(body: Buffer | string, signingKey: string, signature: string): boolean {
  const expected = Buffer.from(sign(body, signingKey), "hex");
  const given = Buffer.from(signature, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Standard Webhooks (standardwebhooks.com), beside Service-Signature: `webhook-id` (the event id, the same on every
 * attempt), `webhook-timestamp` (the send time, in seconds) and `webhook-signature`.
 */
export const STANDARD_WEBHOOKS_HEADERS = {
  id: "webhook-id",
  timestamp: "webhook-timestamp",
  signature: "webhook-signature",
} as const;

const STANDARD_SECRET_PREFIX = "whsec_";

/** The key bytes of a Standard Webhooks secret: the base64 after `whsec_`. */
export function standardWebhooksKey(secret: string): Buffer {
  return Buffer.from(
    secret.startsWith(STANDARD_SECRET_PREFIX) ? secret.slice(STANDARD_SECRET_PREFIX.length) : secret,
    "base64",
  );
}

/**
 * One Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` (the exact body bytes). A
 * signing key given as text is keyed with its UTF-8 bytes, as Service-Signature is: its Standard Webhooks secret is
 * `whsec_` + base64 of those bytes (contracts' standardWebhooksSecret, what GET /webhooks/:id/secret answers).
 */
export function standardSignature(
  key: Buffer | string,
  id: string,
  timestampSeconds: number,
  body: Buffer | string,
): string {
  const hmac = createHmac("sha256", key).update(`${id}.${timestampSeconds}.`).update(body).digest("base64");
  return `v1,${hmac}`;
}

/**
 * A delivery's Standard Webhooks headers: a signature under each key, space-separated (the specification's form for
 * several), the current key's first. While a rolled key's grace lasts that is the new key and the replaced one.
 */
export function standardWebhooksHeaders(
  body: Buffer | string,
  signingKeys: readonly string[],
  id: string,
  timestampSeconds: number,
): Record<string, string> {
  return {
    [STANDARD_WEBHOOKS_HEADERS.id]: id,
    [STANDARD_WEBHOOKS_HEADERS.timestamp]: String(timestampSeconds),
    [STANDARD_WEBHOOKS_HEADERS.signature]: signingKeys
      .map((key) => standardSignature(key, id, timestampSeconds, body))
      .join(" "),
  };
}

/** Whether the key a roll replaced still signs at `now` (ms): until its expiry, which it does not reach. */
export function previousKeySigns(expiresAt: Date | null, now: number): boolean {
  return expiresAt !== null && expiresAt.getTime() > now;
}
