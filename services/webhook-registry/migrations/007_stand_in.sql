-- Stand-in rules (the contracts' standInSchema, as a card program's authorization.standIn): what the authorization
-- engine decides for a capture this webhook gets no usable answer from in time, when the card's program has no rules
-- of its own. Kept as parsed (MCC lists as arrays, `otherwise` filled in) and carried on webhooks.v1; null: none.
ALTER TABLE webhooks.webhooks ADD COLUMN stand_in jsonb;
