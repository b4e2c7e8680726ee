import { createHmac, hkdfSync, randomBytes, scryptSync, timingSafeEqual } from "node:crypto";
import { createSealer, newDataKey } from "@cardhold/platform";

/**
 * Card secrets at rest: PAN and CVV are sealed with AES-256-GCM under the engine's card data key (each with its own
 * random IV; the tag authenticates it), and a PIN is kept only as a salted scrypt hash. A PAN also has a keyed hash
 * (HMAC-SHA256) to be found by: the network interface knows a card only by its PAN.
 */
export interface CardVault {
  seal(plain: string): string;
  open(sealed: string): string;
  hashPin(pin: string): string;
  pinMatches(pin: string, hash: string): boolean;
  /** A PAN's keyed hash (engine.cards.pan_hash): finds a card by its PAN without unsealing every card's. */
  panHash(pan: string): string;
}

/** `keyHex`: 32 bytes as 64 hexadecimal characters (CARD_DATA_KEY). Sealing is the platform's (`v1:` format). */
export function createCardVault(keyHex: string): CardVault {
  const sealer = createSealer(keyHex, "the card data key");
  // Its own key, derived from the card data key: a hash made for lookups never shares a key with the sealing.
  const panLookupKey = Buffer.from(hkdfSync("sha256", Buffer.from(keyHex, "hex"), "", "cardhold pan lookup v1", 32));
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
    panHash: (pan) => createHmac("sha256", panLookupKey).update(pan).digest("base64url"),
  };
}

export const newCardDataKey = newDataKey;
