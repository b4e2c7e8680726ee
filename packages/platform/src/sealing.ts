import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Secrets at rest: AES-256-GCM under a 32-byte data key, a fresh random 96-bit nonce per value, the 128-bit tag
 * authenticating it. The text format is versioned: `v1:` + base64(nonce ‖ tag ‖ ciphertext). An optional context
 * (additional authenticated data, not stored) binds a sealed value to what it belongs to, e.g. a webhook id, so a
 * value copied onto another row does not open. Opening fails with one generic error that never quotes the input.
 */
export interface Sealer {
  seal(plain: string, context?: string): string;
  open(sealed: string, context?: string): string;
}

export const SEALED_PREFIX = "v1:";
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** 64 hexadecimal characters: 32 bytes, an AES-256 key (CARD_DATA_KEY, SECRETS_KEY). */
export const DATA_KEY_PATTERN = /^[0-9a-fA-F]{64}$/;

/** A fresh data key, 64 hex characters. */
export const newDataKey = (): string => randomBytes(32).toString("hex");

/** True when the value has the sealed text format (it may still fail to open under another key). */
export const isSealed = (value: string): boolean => value.startsWith(SEALED_PREFIX);

export class SealedValueError extends Error {
  constructor() {
    super("sealed value cannot be opened: unknown format, another key, or tampered with");
    this.name = "SealedValueError";
  }
}

/** `keyHex`: 32 bytes as 64 hexadecimal characters; `name` goes into the error about a bad key (never the key). */
export function createSealer(keyHex: string, name = "the data key"): Sealer {
  if (!DATA_KEY_PATTERN.test(keyHex)) throw new Error(`${name} must be 64 hexadecimal characters (32 bytes)`);
  const key = Buffer.from(keyHex, "hex");
  return {
    seal(plain, context) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, nonce, { authTagLength: TAG_BYTES });
      if (context !== undefined) cipher.setAAD(Buffer.from(context, "utf8"));
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return SEALED_PREFIX + Buffer.concat([nonce, cipher.getAuthTag(), body]).toString("base64");
    },
    open(sealed, context) {
      const payload = isSealed(sealed) ? sealed.slice(SEALED_PREFIX.length) : "";
      if (!payload || !BASE64.test(payload)) throw new SealedValueError();
      const bytes = Buffer.from(payload, "base64");
      if (bytes.length < NONCE_BYTES + TAG_BYTES) throw new SealedValueError();
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, NONCE_BYTES), {
          authTagLength: TAG_BYTES,
        });
        decipher.setAuthTag(bytes.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
        if (context !== undefined) decipher.setAAD(Buffer.from(context, "utf8"));
        return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString(
          "utf8",
        );
      } catch {
        // GCM checks the tag in constant time; the failure says nothing about which byte was wrong.
        throw new SealedValueError();
      }
    },
  };
}

/** A webhook's signing key sealed under SECRETS_KEY, bound to the webhook's id. */
export interface SigningKeySealer {
  seal(webhookId: string, signingKey: string): string;
  open(webhookId: string, sealed: string): string;
}

export function signingKeySealer(secretsKeyHex: string): SigningKeySealer {
  const sealer = createSealer(secretsKeyHex, "SECRETS_KEY");
  const context = (webhookId: string) => `webhook-signing-key:${webhookId}`;
  return {
    seal: (webhookId, signingKey) => sealer.seal(signingKey, context(webhookId)),
    open: (webhookId, sealed) => sealer.open(sealed, context(webhookId)),
  };
}

/**
 * The test default webhook's signing key as the gateway announces it on businesses.v1 (given when the business is
 * created), sealed under SECRETS_KEY and bound to the business id, so the key is never plain in the gateway's outbox
 * or on Kafka.
 */
export function announcedSigningKeySealer(secretsKeyHex: string) {
  const sealer = createSealer(secretsKeyHex, "SECRETS_KEY");
  const context = (businessId: string) => `business-default-signing-key:${businessId}`;
  return {
    seal: (businessId: string, signingKey: string) => sealer.seal(signingKey, context(businessId)),
    open: (businessId: string, sealed: string) => sealer.open(sealed, context(businessId)),
  };
}

/** Compares two secrets in constant time (over their SHA-256 digests, so the lengths do not leak either). */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());
}
