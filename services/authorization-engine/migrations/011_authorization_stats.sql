-- GET /card-authorizations/stats measures decision latency from an authorization's creation to its first decision
-- (when it left pending). updated_at moves again at a reversal or an amount change, so the first decision's time is
-- kept apart. Null while undecided, and on authorizations decided before this column (they have no latency).
-- The stats read a window of created_at through authorizations_by_created (business_id, mode, created_at DESC, id
-- DESC): no index of their own.
ALTER TABLE engine.authorizations ADD COLUMN decided_at timestamptz;

-- An authorization's ledger entries (GET /accounts/:id/logs?filter=reference:<authorization id>, the console's
-- timeline): without this, the list walks the account's whole log newest first looking for its two or three entries
-- (a parallel seq scan of 2,000,000 entries: 190 ms; with it, 0.2 ms). References are mostly time-ordered ids
-- (authorizations, disputes, cards), so inserts land at the index's right edge.
CREATE INDEX IF NOT EXISTS ledger_entries_by_reference ON engine.ledger_entries (reference);
