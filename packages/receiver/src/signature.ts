import { createHmac, timingSafeEqual } from "node:crypto";

export const SIGNATURE_HEADER = "service-signature";

/** True when `signature` is the hex HMAC-SHA512 of the exact body bytes under `signingKey`; constant time. */
export function verifySignature(rawBody: Buffer | string, signature: string | undefined, signingKey: string): boolean {
  if (!signature || !/^[0-9a-f]{128}$/i.test(signature)) return false;
  const expected = createHmac("sha512", signingKey).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(signature, "hex"));
}
