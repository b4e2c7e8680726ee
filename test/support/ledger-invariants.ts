/**
 * The ledger's invariants, checked with SQL against the engine's tables (any database holding the engine schema):
 * every movement balances, the books sum to zero, no funded account is below zero, and each account's held amount is
 * exactly what its authorizations hold, and no row points to one that does not exist (the engine's hot rows carry no
 * foreign keys: migrations/002). Returns the problems found (empty when all hold).
 */
export async function ledgerProblems(
  query: (text: string) => Promise<{ rows: Array<Record<string, unknown>> }>,
): Promise<string[]> {
  const problems: string[] = [];
  const unbalanced = await query(
    "SELECT movement_id, sum(amount)::bigint AS total FROM engine.ledger_entries GROUP BY movement_id HAVING sum(amount) <> 0",
  );
  for (const r of unbalanced.rows) problems.push(`movement ${String(r.movement_id)} sums to ${String(r.total)}`);
  const books = await query(
    `SELECT (SELECT COALESCE(sum(posted), 0) FROM engine.accounts WHERE role NOT IN ('network-clearing', 'external', 'fx-conversion', 'disputes'))
          + (SELECT COALESCE(sum(e.amount), 0) FROM engine.ledger_entries e JOIN engine.accounts a ON a.id = e.account_id
              WHERE a.role IN ('network-clearing', 'external', 'fx-conversion', 'disputes')) AS total`,
  );
  if (Number(books.rows[0]?.total) !== 0) problems.push(`the books sum to ${String(books.rows[0]?.total)}, not 0`);
  const drift = await query(
    `SELECT a.id, a.posted, (SELECT COALESCE(sum(amount), 0) FROM engine.ledger_entries e WHERE e.account_id = a.id) AS entries
       FROM engine.accounts a WHERE a.role NOT IN ('network-clearing', 'external', 'fx-conversion', 'disputes')
        AND a.posted <> (SELECT COALESCE(sum(amount), 0) FROM engine.ledger_entries e WHERE e.account_id = a.id)`,
  );
  for (const r of drift.rows)
    problems.push(`account ${String(r.id)} posts ${String(r.posted)} but its entries sum to ${String(r.entries)}`);
  const negative = await query(
    "SELECT id, posted, held FROM engine.accounts WHERE role NOT IN ('network-clearing', 'external', 'fx-conversion', 'disputes') AND (posted - held < 0 OR held < 0)",
  );
  for (const r of negative.rows)
    problems.push(`account ${String(r.id)} has posted ${String(r.posted)} and held ${String(r.held)}`);
  const holds = await query(
    `SELECT a.id, a.held, COALESCE(h.held, 0) AS by_authorizations FROM engine.accounts a
       LEFT JOIN (SELECT account_id, sum(held) AS held FROM engine.authorizations GROUP BY account_id) h ON h.account_id = a.id
      WHERE a.held <> COALESCE(h.held, 0)`,
  );
  for (const r of holds.rows)
    problems.push(
      `account ${String(r.id)} holds ${String(r.held)} but its authorizations hold ${String(r.by_authorizations)}`,
    );
  const stuck = await query("SELECT id FROM engine.authorizations WHERE held > 0 AND decision_due_at IS NULL");
  for (const r of stuck.rows) problems.push(`authorization ${String(r.id)} still holds funds after it was decided`);
  const dangling = await query(
    `SELECT 'ledger entry ' || e.id AS what FROM engine.ledger_entries e
      WHERE NOT EXISTS (SELECT 1 FROM engine.accounts a WHERE a.id = e.account_id)
         OR NOT EXISTS (SELECT 1 FROM engine.ledger_movements m WHERE m.id = e.movement_id)
     UNION ALL
     SELECT 'authorization ' || au.id FROM engine.authorizations au
      WHERE NOT EXISTS (SELECT 1 FROM engine.cards c WHERE c.id = au.card_id)
         OR NOT EXISTS (SELECT 1 FROM engine.accounts a WHERE a.id = au.account_id)
         OR NOT EXISTS (SELECT 1 FROM engine.accounts a WHERE a.id = au.settlement_account_id)
     UNION ALL
     SELECT 'transaction ' || t.id FROM engine.transactions t
      WHERE NOT EXISTS (SELECT 1 FROM engine.authorizations au WHERE au.id = t.authorization_id)
     UNION ALL
     SELECT 'dispute ' || d.id FROM engine.disputes d
      WHERE NOT EXISTS (SELECT 1 FROM engine.authorizations au WHERE au.id = d.authorization_id)
         OR NOT EXISTS (SELECT 1 FROM engine.accounts a WHERE a.id = d.account_id)`,
  );
  for (const r of dangling.rows) problems.push(`${String(r.what)} points to a row that does not exist`);
  return problems;
}
