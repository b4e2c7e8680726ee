-- Decision deliveries are claimed ahead of notifications, from their own index: a backlog of notifications must not
-- be scanned (or waited behind) to find the decision whose deadline is running.
CREATE INDEX deliveries_due_decisions ON dispatcher.deliveries (next_attempt_at, seq)
  WHERE status = 'pending' AND policy = 'decision';
