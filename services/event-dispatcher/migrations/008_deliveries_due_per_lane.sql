-- Due deliveries per lane (a webhook's decisions, or its notifications), each in claim order (next_attempt_at, seq).
-- The claim reads every lane apart and takes no more than its room: a webhook with a backlog and no room costs one
-- probe of this index, where the single claim-order index made the claim walk past that whole backlog to find the
-- deliveries of webhooks that had room. It replaces that index (the same number of index writes per delivery).
CREATE INDEX IF NOT EXISTS deliveries_due_per_lane ON dispatcher.deliveries (webhook_id, policy, next_attempt_at, seq)
  WHERE status = 'pending';
DROP INDEX IF EXISTS dispatcher.deliveries_due;
