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
