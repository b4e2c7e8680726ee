-- The unique (event_id, webhook_id) index serves every lookup by event: this one only cost a write on every change of a
-- delivery (each change of status writes every index of the row anew).
DROP INDEX IF EXISTS dispatcher.deliveries_by_event;
