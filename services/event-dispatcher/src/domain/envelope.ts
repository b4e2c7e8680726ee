import type { Mode } from "@cardhold/contracts";

/**
 * The bytes delivered (and signed) for an event: the producer's envelope with its fields in their order, plus
 * `mode` last, so that a receiver can tell test events from live ones. The mode is the events.v1 message's — the
 * mode whose webhooks the event is routed to, and so whose webhook's key signs it; a producer's own `mode` field,
 * were there one, keeps its place but takes this value.
 */
export function deliveredEnvelope(envelope: Record<string, unknown>, mode: Mode): string {
  return JSON.stringify({ ...envelope, mode });
}
