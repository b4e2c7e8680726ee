-- The trace each event was published in: a delivery sent later (a retry, another instance's claim) continues it.
ALTER TABLE dispatcher.events ADD COLUMN traceparent text;
