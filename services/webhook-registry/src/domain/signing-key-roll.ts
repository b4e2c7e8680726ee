/** How long the key a roll replaced keeps signing deliveries (Standard Webhooks `webhook-signature`) beside the new one. */
export const PREVIOUS_KEY_GRACE_MS = 24 * 3_600_000;

/** A webhook's sealed keys: the current one, and the one the last roll replaced with when it stops signing. */
export interface SealedKeys {
  current: string;
  previous: { sealed: string; expiresAt: Date } | null;
}

/**
 * After a roll at `now` to `sealedNewKey`: the replaced key signs for the grace from now. A roll within the grace of
 * an earlier one ends that earlier key at once: only the key just replaced is kept.
 */
export function rolledKeys(keys: SealedKeys, sealedNewKey: string, now: Date): SealedKeys {
  return {
    current: sealedNewKey,
    previous: { sealed: keys.current, expiresAt: new Date(now.getTime() + PREVIOUS_KEY_GRACE_MS) },
  };
}

/** The keys as they stand at `now`: a previous key past its grace is dropped (it no longer signs anything). */
export function keysAt(keys: SealedKeys, now: Date): SealedKeys {
  if (keys.previous && keys.previous.expiresAt.getTime() <= now.getTime()) return { ...keys, previous: null };
  return keys;
}
