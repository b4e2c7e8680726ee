import { execFileSync } from "node:child_process";
import { standardWebhooksSecret } from "@cardhold/contracts";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import {
  previousKeySigns,
  standardSignature,
  standardWebhooksHeaders,
  standardWebhooksKey,
  STANDARD_WEBHOOKS_HEADERS,
} from "./signature";

/** The Standard Webhooks specification's own test vector. */
const SPEC = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
};

/** base64 HMAC-SHA256 of `input` keyed with `keyBytes`, by the openssl command line (not node's crypto). */
function opensslHmac(keyBytes: Buffer, input: string): string {
  const args = ["dgst", "-sha256", "-mac", "HMAC", "-macopt", `hexkey:${keyBytes.toString("hex")}`, "-binary"];
  return execFileSync("openssl", args, { input }).toString("base64");
}

describe("Standard Webhooks signature", () => {
  it("gives the specification's test vector", () => {
    const key = standardWebhooksKey(SPEC.secret);
    expect(standardSignature(key, SPEC.id, SPEC.timestamp, SPEC.body)).toBe(SPEC.signature);
    expect(standardSignature(key, SPEC.id, SPEC.timestamp, Buffer.from(SPEC.body))).toBe(SPEC.signature);
    expect(opensslHmac(key, `${SPEC.id}.${SPEC.timestamp}.${SPEC.body}`)).toBe(SPEC.signature.slice(3));
  });

  const signingKeys: Array<[string, string]> = [
    ["a-much-longer-signing-key-0123456789abcdef", '{"event":"card.transaction.created","data":{"amount":-500}}'],
    ["0f".repeat(32), "{}"],
    ["ключ-подписи-0123", '{"name":"Ọlá ☂"}'],
  ];

  it.each(signingKeys)("signs with the UTF-8 bytes of signing key %s, as openssl does", (signingKey, body) => {
    const signature = standardSignature(signingKey, "evt.1", 1_772_366_400, body);
    expect(signature).toBe(`v1,${opensslHmac(Buffer.from(signingKey, "utf8"), `evt.1.1772366400.${body}`)}`);
  });

  it.each(signingKeys)("verifies with standardwebhooks under the secret the API answers for %s", (signingKey, body) => {
    const now = Math.floor(Date.now() / 1000);
    const headers = standardWebhooksHeaders(Buffer.from(body), [signingKey], "evt.2", now);
    expect(new Webhook(standardWebhooksSecret(signingKey)).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(standardWebhooksSecret(`${signingKey}x`)).verify(body, headers)).toThrow(
      /No matching signature/,
    );
  });

  it("carries the id, the timestamp in seconds and one signature per key, the current key's first", () => {
    const headers = standardWebhooksHeaders(SPEC.body, ["new-key-0123456789", "old-key-0123456789"], "evt.3", 1_700);
    expect(Object.keys(headers)).toEqual(Object.values(STANDARD_WEBHOOKS_HEADERS));
    expect(headers).toEqual({
      "webhook-id": "evt.3",
      "webhook-timestamp": "1700",
      "webhook-signature": [
        standardSignature("new-key-0123456789", "evt.3", 1_700, SPEC.body),
        standardSignature("old-key-0123456789", "evt.3", 1_700, SPEC.body),
      ].join(" "),
    });
  });

  it("takes a secret with or without whsec_", () => {
    expect(standardWebhooksKey(SPEC.secret)).toEqual(standardWebhooksKey(SPEC.secret.slice("whsec_".length)));
    expect(standardWebhooksKey(standardWebhooksSecret("ключ-0123"))).toEqual(Buffer.from("ключ-0123", "utf8"));
  });
});

describe("a rolled key's grace", () => {
  const expiresAt = new Date("2026-03-02T12:00:00.000Z");
  it.each([
    [null, 0, false],
    [expiresAt, expiresAt.getTime() - 86_400_000, true],
    [expiresAt, expiresAt.getTime() - 1, true],
    [expiresAt, expiresAt.getTime(), false],
    [expiresAt, expiresAt.getTime() + 1, false],
  ])("expiring %s, at %d the previous key signs: %s", (expiry, now, signs) => {
    expect(previousKeySigns(expiry, now)).toBe(signs);
  });
});
