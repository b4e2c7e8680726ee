import { createCipheriv, createDecipheriv, randomBytes, scryptSync, timingSafeEqual } from "node:crypto";

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

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** `keyHex`: 32 bytes as 64 hexadecimal characters (CARD_DATA_KEY). */
export function createCardVault(keyHex: string): CardVault {
  if (!/^[0-9a-fA-F]{64}$/.test(keyHex)) throw new Error("the card data key must be 64 hexadecimal characters (32 bytes)");
  const key = Buffer.from(keyHex, "hex");
  return {
    seal(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64")}`;
    },
    open(sealed) {
      const [version, payload] = sealed.split(":");
      if (version !== VERSION || !payload) throw new Error("unknown sealed card data format");
      const bytes = Buffer.from(payload, "base64");
      const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
    },
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

export const newCardDataKey = () => randomBytes(32).toString("hex");
