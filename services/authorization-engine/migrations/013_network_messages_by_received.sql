-- The network interface deletes what it answered once it is older than its retention (ISO8583_RETENTION_HOURS,
-- network-interface/message-retention.ts): this index finds the oldest rows without reading the table.
CREATE INDEX network_messages_by_received ON engine.network_messages (received_at);
