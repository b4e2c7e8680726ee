import { createCipheriv, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createSealer, isSealed, newDataKey, sameSecret, SealedValueError, signingKeySealer } from "./sealing";

const KEY = newDataKey();

describe("sealing (AES-256-GCM, v1 text format)", () => {
  it("round-trips text, with a fresh nonce each time", () => {
    const sealer = createSealer(KEY);
    for (const plain of ["", "4111111111111111", "ünïcode ✓", "x".repeat(10_000)]) {
      const a = sealer.seal(plain);
      const b = sealer.seal(plain);
      expect(a).toMatch(/^v1:[A-Za-z0-9+/]+=*$/);
      expect(isSealed(a)).toBe(true);
      expect(a).not.toBe(b);
      expect(sealer.open(a)).toBe(plain);
      if (plain.length > 3) expect(a).not.toContain(Buffer.from(plain).toString("base64").slice(0, 8));
    }
  });

  it("keeps the card vault's format: v1: base64(iv ‖ tag ‖ ciphertext), no associated data", () => {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", Buffer.from(KEY, "hex"), iv);
    const body = Buffer.concat([cipher.update("123", "utf8"), cipher.final()]);
    const sealedTheOldWay = `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64")}`;
    expect(createSealer(KEY).open(sealedTheOldWay)).toBe("123");
  });

  it("refuses another key, another context, a tampered value and unknown formats with one generic error", () => {
    const sealer = createSealer(KEY);
    const sealed = sealer.seal("secret-value", "ctx-a");
    expect(sealer.open(sealed, "ctx-a")).toBe("secret-value");
    const bytes = Buffer.from(sealed.slice(3), "base64");
    bytes[bytes.length - 1]! ^= 1;
    const tampered = `v1:${bytes.toString("base64")}`;
    for (const open of [
      () => createSealer(newDataKey()).open(sealed, "ctx-a"),
      () => sealer.open(sealed, "ctx-b"),
      () => sealer.open(sealed),
      () => sealer.open(tampered, "ctx-a"),
      () => sealer.open("secret-value"),
      () => sealer.open("v2:AAAA"),
      () => sealer.open("v1:"),
      () => sealer.open("v1:not base64!"),
      () => sealer.open("v1:AAAA"),
    ]) {
      expect(open).toThrow(SealedValueError);
      try {
        open();
      } catch (error) {
        expect(String(error)).not.toContain("secret-value");
      }
    }
  });

  it("accepts only a 64-hex key, and never quotes it", () => {
    for (const bad of ["", "abc", "g".repeat(64), KEY + "00"]) {
      expect(() => createSealer(bad, "SECRETS_KEY")).toThrow(/^SECRETS_KEY must be 64 hexadecimal characters/);
    }
    try {
      createSealer(KEY.slice(1), "SECRETS_KEY");
    } catch (error) {
      expect(String(error)).not.toContain(KEY.slice(1, 20));
    }
  });

  it("binds a webhook's signing key to the webhook id", () => {
    const keys = signingKeySealer(KEY);
    const sealed = keys.seal("wh.a", "whsec-0123456789");
    expect(keys.open("wh.a", sealed)).toBe("whsec-0123456789");
    expect(() => keys.open("wh.b", sealed)).toThrow(SealedValueError);
    expect(() => createSealer(KEY).open(sealed)).toThrow(SealedValueError);
  });

  it("compares secrets whatever their lengths", () => {
    expect(sameSecret("abc", "abc")).toBe(true);
    expect(sameSecret("abc", "abd")).toBe(false);
    expect(sameSecret("abc", "abcd")).toBe(false);
  });
});
