import { execFileSync } from "node:child_process";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { standardWebhooksSecret, TOPICS, type WebhookChangedMessage } from "@cardhold/contracts";
import { newDataKey, newId, signingKeySealer } from "@cardhold/platform";
import { eventually } from "../../../test/support/eventually";
import { eventMessage } from "../../../test/support/event-message";
import { FakeReceiver, type ReceivedRequest } from "../../../test/support/fake-receiver";
import { startDispatcher, type DispatcherHarness } from "./harness";

/**
 * Every delivery carries Standard Webhooks headers beside Service-Signature, checked here the way a receiver would:
 * with the specification's own library (standardwebhooks) and the secret GET /webhooks/:id/secret answers, and
 * with openssl on the exact bytes received.
 */
const SECRETS_KEY = newDataKey();
const sealer = signingKeySealer(SECRETS_KEY);
const OLD_KEY = "old-signing-key-0123456789";
const NEW_KEY = "new-signing-key-0123456789";

let h: DispatcherHarness;
let r: FakeReceiver;
beforeAll(async () => {
  h = await startDispatcher({ secretsKey: SECRETS_KEY });
  r = new FakeReceiver();
  await r.start();
});
afterAll(async () => {
  await r?.stop();
  await h?.stop();
});

/** webhooks.v1 as the registry announces a default webhook: the key sealed, and the one a roll replaced if any. */
async function announce(businessId: string, id: string, previous?: { key: string; expiresAt: Date }) {
  const value: WebhookChangedMessage = {
    type: "webhook.changed",
    businessId,
    mode: "test",
    occurredAt: new Date().toISOString(),
    data: {
      id,
      url: r.url,
      events: [],
      sealedSigningKey: sealer.seal(id, NEW_KEY),
      status: "enabled",
      isDefault: true,
      ...(previous && {
        sealedPreviousSigningKey: sealer.seal(id, previous.key),
        previousSigningKeyExpiresAt: previous.expiresAt.toISOString(),
      }),
    },
  };
  await h.bus.publish([{ topic: TOPICS.webhooks, key: id, value }]);
}

/** Publishes an event and waits for its first `n` attempts (the routing table may take a moment to see the webhook). */
async function attemptsOf(businessId: string, n = 1): Promise<ReceivedRequest[]> {
  const message = eventMessage(businessId, "card.transaction.created", { amount: -5_000 });
  await h.bus.publish([message]);
  return eventually(() => {
    expect(r.byEvent(message.eventId).length).toBeGreaterThanOrEqual(n);
    return r.byEvent(message.eventId);
  });
}

const header = (got: ReceivedRequest, name: string) => String(got.headers[name]);
const standardHeaders = (got: ReceivedRequest, signature = header(got, "webhook-signature")) => ({
  "webhook-id": header(got, "webhook-id"),
  "webhook-timestamp": header(got, "webhook-timestamp"),
  "webhook-signature": signature,
});

/** What openssl makes of `input` with `key`: base64 HMAC-SHA256 (Standard Webhooks) or hex HMAC-SHA512. */
function openssl(digest: "sha256" | "sha512", key: string, input: Buffer): string {
  const out = execFileSync("openssl", ["dgst", `-${digest}`, "-hmac", key, "-binary"], { input });
  return digest === "sha256" ? out.toString("base64") : out.toString("hex");
}
const signedContent = (got: ReceivedRequest) =>
  Buffer.concat([Buffer.from(`${header(got, "webhook-id")}.${header(got, "webhook-timestamp")}.`), got.raw]);

describe("Standard Webhooks headers on a delivery", () => {
  it("verify with standardwebhooks and with openssl; Service-Signature is unchanged", async () => {
    const businessId = newId("business");
    await announce(businessId, newId("webhook"));
    const [got] = await attemptsOf(businessId);
    const before = Math.floor(Date.now() / 1000);

    expect(header(got!, "webhook-id")).toBe(got!.json.metadata.event);
    expect(header(got!, "webhook-id")).toMatch(/^evt\./);
    expect(Number(header(got!, "webhook-timestamp"))).toBeGreaterThanOrEqual(before - 5);
    expect(Number(header(got!, "webhook-timestamp"))).toBeLessThanOrEqual(before);
    expect(new Webhook(standardWebhooksSecret(NEW_KEY)).verify(got!.raw, standardHeaders(got!))).toEqual(got!.json);
    expect(header(got!, "webhook-signature")).toBe(`v1,${openssl("sha256", NEW_KEY, signedContent(got!))}`);
    expect(header(got!, "service-signature")).toBe(openssl("sha512", NEW_KEY, got!.raw));
    // Tampered bytes, or another key, do not verify.
    const tampered = Buffer.from(got!.raw.toString().replace("-5000", "-5001"));
    expect(() => new Webhook(standardWebhooksSecret(NEW_KEY)).verify(tampered, standardHeaders(got!))).toThrow();
    expect(() => new Webhook(standardWebhooksSecret(OLD_KEY)).verify(got!.raw, standardHeaders(got!))).toThrow();
  });

  it("keep the event id on every retry, each attempt signed at its own send time", async () => {
    const businessId = newId("business");
    await announce(businessId, newId("webhook"));
    let failures = 0;
    r.answerWith(() => (failures++ < 1 ? { status: 500 } : { status: 200, body: { code: "success" } }));
    const [first, retry] = await attemptsOf(businessId, 2);
    r.answerWith({ status: 200, body: { code: "success" } });
    expect(header(retry!, "webhook-id")).toBe(header(first!, "webhook-id"));
    for (const got of [first!, retry!]) {
      expect(new Webhook(standardWebhooksSecret(NEW_KEY)).verify(got.raw, standardHeaders(got))).toEqual(got.json);
    }
  });
});

describe("during a key roll's grace", () => {
  it("webhook-signature carries the new key's and the old key's signatures, each verifying with its own; after it, the new key's only", async () => {
    const businessId = newId("business");
    const expiresAt = new Date(Date.now() + 3_000);
    await announce(businessId, newId("webhook"), { key: OLD_KEY, expiresAt });
    const [during] = await attemptsOf(businessId);
    expect(Date.now()).toBeLessThan(expiresAt.getTime());

    const signatures = header(during!, "webhook-signature").split(" ");
    expect(signatures).toHaveLength(2);
    const [signedByNew, signedByOld] = signatures as [string, string];
    expect(signedByNew).toBe(`v1,${openssl("sha256", NEW_KEY, signedContent(during!))}`);
    expect(signedByOld).toBe(`v1,${openssl("sha256", OLD_KEY, signedContent(during!))}`);
    const verifiesWith = (key: string, signature: string) => {
      try {
        new Webhook(standardWebhooksSecret(key)).verify(during!.raw, standardHeaders(during!, signature));
        return true;
      } catch {
        return false;
      }
    };
    expect([verifiesWith(NEW_KEY, signedByNew), verifiesWith(OLD_KEY, signedByOld)]).toEqual([true, true]);
    expect([verifiesWith(NEW_KEY, signedByOld), verifiesWith(OLD_KEY, signedByNew)]).toEqual([false, false]);
    // A receiver still holding only the old key, or already the new one, verifies the whole header.
    for (const key of [OLD_KEY, NEW_KEY])
      expect(new Webhook(standardWebhooksSecret(key)).verify(during!.raw, standardHeaders(during!))).toEqual(
        during!.json,
      );
    // Service-Signature: the new key's only, as before.
    expect(header(during!, "service-signature")).toBe(openssl("sha512", NEW_KEY, during!.raw));

    await new Promise((resolve) => setTimeout(resolve, expiresAt.getTime() - Date.now() + 50));
    const [after] = await attemptsOf(businessId);
    expect(header(after!, "webhook-signature")).toBe(`v1,${openssl("sha256", NEW_KEY, signedContent(after!))}`);
    expect(() => new Webhook(standardWebhooksSecret(OLD_KEY)).verify(after!.raw, standardHeaders(after!))).toThrow(
      /No matching signature/,
    );
    expect(header(after!, "service-signature")).toBe(openssl("sha512", NEW_KEY, after!.raw));
  });

  it("a later message without the old key ends its signatures at once", async () => {
    const businessId = newId("business");
    const webhookId = newId("webhook");
    await announce(businessId, webhookId, { key: OLD_KEY, expiresAt: new Date(Date.now() + 86_400_000) });
    const [during] = await attemptsOf(businessId);
    expect(header(during!, "webhook-signature").split(" ")).toHaveLength(2);
    await new Promise((resolve) => setTimeout(resolve, 5)); // the next version gets a later occurredAt
    await announce(businessId, webhookId);
    await eventually(async () => {
      const [got] = await attemptsOf(businessId);
      expect(header(got!, "webhook-signature").split(" ")).toHaveLength(1);
    });
  });
});
