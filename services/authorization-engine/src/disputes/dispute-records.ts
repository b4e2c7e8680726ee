import { present, type Json } from "../record-shape";
import type { DisputeRow } from "../store/disputes.store";

/** The dispute record: the request's fields (reason, source, text, documents, user) and what the platform adds. */
export function toDisputeRecord(row: DisputeRow): Json {
  return present({
    id: row.id,
    object: "dispute",
    reason: row.reason,
    source: row.authorization_id,
    text: row.text,
    documents: row.documents,
    user: row.user_id,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    card: row.card_id,
    customer: row.customer_id,
    account: row.account_id,
    provisionalCredit: row.provisional_credit,
    owed: row.owed,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  });
}
