import type { OutgoingMessage } from "@cardhold/bus";
import { TOPICS, type FeeCreatedMessage, type Mode } from "@cardhold/contracts";
import type { Scope } from "@cardhold/query";
import type { FeeRow } from "../store/fees.store";

/**
 * fees.v1: a fee as other services charge it (the bill-service's configured bill-payment fee). Keyed by the fee's id
 * on a compacted topic; a fee never changes, so its creation is its only message.
 */
export function feeCreated(scope: Scope, row: FeeRow): OutgoingMessage {
  const value: FeeCreatedMessage = {
    type: "fee.created",
    businessId: scope.businessId,
    mode: scope.mode as Mode,
    occurredAt: row.created_at.toISOString(),
    data: {
      id: row.id,
      name: row.name,
      structure: row.structure,
      currency: row.currency,
      value: Number(row.value),
      cap: row.cap === null ? null : Number(row.cap),
      account: row.account_id,
      createdAt: row.created_at.toISOString(),
    },
  };
  return { topic: TOPICS.fees, key: row.id, value };
}
