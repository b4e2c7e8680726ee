/**
 * What a run left behind, read from the platform's tables (one database holding every service's schema, as both the
 * all-in-one and the distributed runs of the tests have): work still moving, final-state events a receiver never got,
 * and bill payments whose money is not exactly right. Shared by the crash test and the chaos run.
 */

export type Query = (text: string) => Promise<{ rows: Array<Record<string, any>> }>;

/** A delivery as a receiver saw it: the envelope's kind, its data and the platform's event id. */
export interface ReceivedEnvelope {
  event: string;
  data: Record<string, any>;
  metadata: { event: string };
}

/** The schemas of the six services (each with an outbox). */
export const SERVICE_SCHEMAS = ["gateway", "customers", "webhooks", "dispatcher", "engine", "bills"];

/** What still moves: undecided authorizations, unfinished payments, unpublished messages, unfinished deliveries. */
export async function stillBusy(query: Query): Promise<string[]> {
  const rows = async (text: string) => (await query(text)).rows;
  const busy: string[] = [];
  const pending = await rows("SELECT id FROM engine.authorizations WHERE status = 'pending'");
  if (pending.length) busy.push(`${pending.length} authorizations pending: ${pending.map((r) => r.id).join(", ")}`);
  const payments = await rows("SELECT id, status FROM bills.payments WHERE status NOT IN ('successful', 'failed')");
  if (payments.length)
    busy.push(`${payments.length} payments not final: ${payments.map((r) => `${r.id} ${r.status}`).join(", ")}`);
  for (const schema of SERVICE_SCHEMAS) {
    const [outbox] = await rows(`SELECT count(*)::int AS n FROM ${schema}.outbox`);
    if (outbox!.n) busy.push(`${outbox!.n} unpublished messages in ${schema}.outbox`);
  }
  const [deliveries] = await rows(
    "SELECT count(*)::int AS n FROM dispatcher.deliveries WHERE status IN ('pending', 'delivering')",
  );
  if (deliveries!.n) busy.push(`${deliveries!.n} deliveries not done`);
  return busy;
}

/**
 * Final authorizations and payments whose final-state event no receiver got, and notifications the dispatcher
 * recorded that never arrived. (A decision request in flight when a dispatcher died is not sent again, by design: its
 * answer would come too late, and the deadline decides.)
 */
export async function missingFinalEvents(query: Query, received: ReceivedEnvelope[]): Promise<string[]> {
  const rows = async (text: string) => (await query(text)).rows;
  const seen = new Set(
    received.map((e) => `${e.event} ${e.data?.id} ${e.data?.status} ${e.data?.amount} ${e.data?.fees}`),
  );
  const missing: string[] = [];
  // A check ends without an event (only captures send card.authorization.closed); a reversal ends with an update.
  const captures = await rows(
    "SELECT id, status, amount, fees FROM engine.authorizations WHERE type = 'capture' AND status <> 'pending'",
  );
  for (const a of captures) {
    const kind = a.status === "reversed" ? "card.authorization.update" : "card.authorization.closed";
    if (!seen.has(`${kind} ${a.id} ${a.status} ${a.amount} ${a.fees}`))
      missing.push(`${kind} for ${a.id} (${a.status}, ${a.amount} + ${a.fees})`);
  }
  const paymentEvents = new Set(received.map((e) => `${e.event} ${e.data?.id}`));
  const payments = await rows("SELECT id, status FROM bills.payments WHERE status IN ('successful', 'failed')");
  for (const p of payments) {
    const kind = p.status === "successful" ? "payment.bill.completed" : "payment.bill.failed";
    if (!paymentEvents.has(`${kind} ${p.id}`)) missing.push(`${kind} for ${p.id}`);
  }
  const ids = new Set(received.map((e) => e.metadata?.event));
  // Only this platform's businesses: on a shared broker, a dispatcher also takes what an earlier run's services
  // published as they stopped (stored `failed`, routed nowhere: their businesses are not in this database).
  const events = await rows(
    `SELECT e.id, e.kind, e.resource_id FROM dispatcher.events e
      WHERE e.policy = 'notification' AND EXISTS (SELECT 1 FROM gateway.businesses b WHERE b.id = e.business_id)`,
  );
  for (const e of events)
    if (!ids.has(e.id)) missing.push(`event ${e.id} (${e.kind} of ${e.resource_id}) never received`);
  return missing;
}

/** Money per bill payment: a successful one debited amount + fee exactly once, a failed one took nothing in the end. */
export async function paymentMoneyProblems(query: Query): Promise<string[]> {
  const { rows: payments } = await query(`
    SELECT p.id, p.status, p.failure_reason, (p.amount + p.fee)::bigint AS total,
      (SELECT count(*) FROM engine.ledger_movements m WHERE m.reference = p.id AND m.kind = 'bill-debit')::int AS debits,
      (SELECT count(*) FROM engine.ledger_movements m WHERE m.reference = p.id AND m.kind = 'bill-refund')::int AS refunds,
      (SELECT COALESCE(sum(e.amount), 0) FROM engine.ledger_entries e JOIN engine.accounts a ON a.id = e.account_id
        WHERE e.reference = p.id AND a.role NOT IN ('external', 'network-clearing'))::bigint AS net
    FROM bills.payments p`);
  const problems: string[] = [];
  for (const p of payments) {
    const net = Number(p.net);
    const ok =
      p.status === "successful"
        ? p.debits === 1 && p.refunds === 0 && net === -Number(p.total)
        : p.refunds === p.debits && p.debits <= 1 && net === 0;
    if (!ok)
      problems.push(
        `payment ${p.id} ${p.status} (${p.failure_reason}): ${p.debits} debits, ${p.refunds} refunds, net ${net} of ${p.total}`,
      );
  }
  return problems;
}

/** Rows per status of a table, e.g. `{approved: 310, declined: 12}`. */
export async function countByStatus(query: Query, table: string): Promise<Record<string, number>> {
  const { rows } = await query(`SELECT status, count(*)::int AS n FROM ${table} GROUP BY status ORDER BY status`);
  return Object.fromEntries(rows.map((r) => [r.status as string, r.n as number]));
}
