import { createHash, randomBytes } from "node:crypto";
import type { Mode } from "@cardhold/contracts";

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const KEY_FORMAT = /^sk\.(test|live)\.([1-9A-HJ-NP-Za-km-z]{32})$/;

/** A new secret key: `sk.<mode>.` and 32 base58 characters (~187 random bits). */
export function generateApiKey(mode: Mode): string {
  const bytes = randomBytes(32);
  let secret = "";
  for (const byte of bytes) secret += ALPHABET[byte % 58];
  return `sk.${mode}.${secret}`;
}

/** The mode of a well-formed key, or undefined for anything else. */
export function parseApiKey(key: string): { mode: Mode } | undefined {
  const match = KEY_FORMAT.exec(key);
  return match ? { mode: match[1] as Mode } : undefined;
}

/** Keys are long random strings, so an unsalted SHA-256 is enough to make a stolen table useless. */
export const hashApiKey = (key: string) => createHash("sha256").update(key).digest("hex");

/** The token of an `Authorization: Bearer <key>` header. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match?.[1];
}
