import { present, type Json } from "../record-shape";
import type { ProgramRow } from "../store/programs.store";

export function toProgramRecord(row: ProgramRow): Json {
  return present({
    id: row.id,
    object: "card.program",
    name: row.name,
    description: row.description,
    network: row.network,
    type: row.type,
    quantity: row.quantity,
    currency: row.currency,
    distribution: row.distribution,
    personalization: row.personalization,
    authorization: present({
      fundingSourceType: row.funding_source_type,
      settlementAccount: row.settlement_account_id,
      transactionFee: row.transaction_fee_id ?? row.transaction_fee,
      feesAccount: row.fees_account_id ?? row.settlement_account_id,
      webhook: row.webhook_id,
      timeoutDefault: row.timeout_default,
      standIn: row.stand_in,
      disputes: { provisionalCredit: row.dispute_provisional_credit, windowDays: row.dispute_window_days },
    }),
    status: row.status,
    metadata: row.metadata,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  });
}
