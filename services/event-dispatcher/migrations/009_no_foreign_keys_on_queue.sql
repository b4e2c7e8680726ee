-- An event's deliveries are inserted in the statement that inserts the event, and an attempt in the statement that
-- updates its delivery: the foreign key checks only repeated, per row, a lookup and a row lock on a row that same
-- statement had just written (a trigger, an index probe and a WAL record each). The dispatcher deletes no events or
-- deliveries. Dropped with the engine's (issue 12, ninth session; bench/README.md): the event insert 0.166 -> 0.135 ms
-- and the attempt records 0.08/0.097 -> 0.067/0.079 ms per call at 250 authorizations/s.
ALTER TABLE dispatcher.deliveries DROP CONSTRAINT IF EXISTS deliveries_event_id_fkey;
ALTER TABLE dispatcher.attempts DROP CONSTRAINT IF EXISTS attempts_delivery_id_fkey;
