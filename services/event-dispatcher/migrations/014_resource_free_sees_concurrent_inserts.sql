-- Whether a webhook has no unfinished delivery of a resource, asked by the statement that stores and claims new
-- deliveries (insertEventsWithDeliveries). Asked inside that statement, the answer came from the statement's snapshot:
-- two dispatchers storing events of one resource at once (a consumer still finishing its batch after a rebalance gave
-- its partition to another) each saw no unfinished delivery, each claimed its own, and the receiver could get a later
-- event first. This function takes a per-(webhook, resource) lock held to the end of the storing transaction, then
-- looks with a fresh snapshot (PL/pgSQL, VOLATILE: each statement sees what committed before it), so the second
-- waits for the first to commit and sees its delivery.
CREATE OR REPLACE FUNCTION dispatcher.resource_free(webhook text, resource text) RETURNS boolean
  LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('dispatcher.resource ' || webhook || ' ' || resource, 0));
  RETURN NOT EXISTS (SELECT 1 FROM dispatcher.deliveries u
                      WHERE u.webhook_id = webhook AND u.resource_id = resource
                        AND u.status IN ('pending', 'delivering'));
END $$;
