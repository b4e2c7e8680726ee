-- seq comes from its own sequence, so it is unique without an index; nothing looks a delivery up by seq alone (the
-- claim reads it through deliveries_due and deliveries_unfinished). The unique index only cost an entry on every
-- insert and every change of a delivery's status.
ALTER TABLE dispatcher.deliveries DROP CONSTRAINT IF EXISTS deliveries_seq_key;
