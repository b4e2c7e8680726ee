-- Due deliveries in the exact order the claim takes them (next_attempt_at, seq): the claim reads the index in order and
-- stops at its limit, instead of sorting every due delivery (and checking each one's per-resource order) first.
DROP INDEX IF EXISTS dispatcher.deliveries_due;
CREATE INDEX deliveries_due ON dispatcher.deliveries (next_attempt_at, seq) WHERE status = 'pending';
