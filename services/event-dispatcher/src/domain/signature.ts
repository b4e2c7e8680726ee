import { createHmac, timingSafeEqual } from "node:crypto";

/** `Service-Signature`: hex HMAC-SHA512 of the exact body bytes, keyed with the webhook's signing key. */
export const SIGNATURE_HEADER = "service-signature";

export function sign(body: Buffer | string, signingKey: string): string {
  return createHmac("sha512", signingKey).update(body).digest("hex");
}

export function verify(body: Buffer | string, signingKey: string, signature: string): boolean {
  const expected = Buffer.from(sign(body, signingKey), "hex");
  const given = Buffer.from(signature, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
