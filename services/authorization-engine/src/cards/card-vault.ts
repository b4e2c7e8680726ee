import { randomBytes, scryptSync, timingSafeEqual } from "node:crypto";
import { createSealer, newDataKey } from "@cardhold/platform";

/**
 * Card secrets at rest: PAN and CVV are sealed with AES-256-GCM under the engine's card data key (each with its own
 * random IV; the tag authenticates it), and a PIN is kept only as a salted scrypt hash.
 */
export interface CardVault {
  seal(plain: string): string;
  open(sealed: string): string;
  hashPin(pin: string): string;
  pinMatches(pin: string, hash: string): boolean;
}

/** `keyHex`: 32 bytes as 64 hexadecimal characters (CARD_DATA_KEY). Sealing is the platform's (`v1:` format). */
export function createCardVault(keyHex: string): CardVault {
  const sealer = createSealer(keyHex, "the card data key");
  return {
    seal: (plain) => sealer.seal(plain),
    open: (sealed) => sealer.open(sealed),
    hashPin(pin) {
      const salt = randomBytes(16);
      return `scrypt:${salt.toString("base64")}:${scryptSync(pin, salt, 32).toString("base64")}`;
    },
    pinMatches(pin, hash) {
      const [scheme, salt, expected] = hash.split(":");
      if (scheme !== "scrypt" || !salt || !expected) return false;
      const actual = scryptSync(pin, Buffer.from(salt, "base64"), 32);
      const wanted = Buffer.from(expected, "base64");
      return actual.length === wanted.length && timingSafeEqual(actual, wanted);
    },
  };
}

export const newCardDataKey = newDataKey;
