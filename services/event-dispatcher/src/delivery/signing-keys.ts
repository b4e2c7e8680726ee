import type { SigningKeySealer } from "@cardhold/platform";

/**
 * The routing table keeps signing keys sealed; the worker opens one only to sign. Opened keys are cached in memory
 * per webhook and version (the sealed text: a roll seals a new value with a fresh nonce), so the hot path opens each
 * key once. Bounded: past `max` webhooks the oldest entry goes.
 */
export interface SigningKeys {
  /**
   * The plain key of a webhook from its sealed value; throws (without quoting either) when it cannot be opened.
   * `which`: the current key, or the one a roll replaced (cached apart, so signing with both opens each once).
   */
  open(webhookId: string, sealed: string, which?: "current" | "previous"): string;
}

export function createSigningKeyCache(sealer: SigningKeySealer, max = 10_000): SigningKeys {
  const cache = new Map<string, { sealed: string; plain: string }>();
  return {
    open(webhookId, sealed, which = "current") {
      const slot = which === "current" ? webhookId : `${webhookId} previous`;
      const hit = cache.get(slot);
      if (hit && hit.sealed === sealed) return hit.plain;
      let plain: string;
      try {
        plain = sealer.open(webhookId, sealed);
      } catch {
        throw new Error(
          `the signing key of webhook ${webhookId} cannot be opened: is SECRETS_KEY the webhook-registry's?`,
        );
      }
      cache.delete(slot);
      if (cache.size >= max) cache.delete(cache.keys().next().value!);
      cache.set(slot, { sealed, plain });
      return plain;
    },
  };
}
