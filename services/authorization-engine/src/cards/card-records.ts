import { mccListsOf, type SpendingControls } from "../domain/pre-checks";
import type { Json } from "../record-shape";
import type { CardRow } from "../store/cards.store";

/** Controls in the documented form: MCC controls as arrays, also on cards stored when they were single strings. */
export function toControlsRecord(controls: SpendingControls): SpendingControls {
  const { allowedMcc, blockedMcc, ...rest } = controls;
  return {
    ...rest,
    ...(allowedMcc !== undefined && { allowedMcc: mccListsOf(allowedMcc) }),
    ...(blockedMcc !== undefined && { blockedMcc: mccListsOf(blockedMcc) }),
  };
}

export function toCardRecord(row: CardRow): Json {
  return {
    id: row.id,
    object: "card",
    type: row.type,
    network: row.network,
    status: row.status,
    currency: row.currency,
    customer: row.customer_id,
    program: row.program_id,
    reference: row.reference,
    fundingSource: row.funding_account_id,
    details: { last4: row.last4, expiry: row.expiry, cardHolderName: row.card_holder_name },
    controls: toControlsRecord(row.controls),
    metadata: row.metadata,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
