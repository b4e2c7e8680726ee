-- Partial approval: a capture request may allow approving less than it asks (partial_approval_allowed, as networks
-- send for prepaid cards); the receiver's approve may then name a smaller amount. `amount` is what was approved,
-- requested_amount what the network asked for (null on authorizations from before: the same as amount).
ALTER TABLE engine.authorizations
  ADD COLUMN requested_amount bigint,
  ADD COLUMN partial_approval_allowed boolean NOT NULL DEFAULT false;

-- Stand-in rules (domain/stand-in.ts): what a capture without a usable answer gets, per program; null: the flat
-- timeout default. An authorization keeps the rules in force when its request came (as it keeps timeout_default)
-- and the rule that decided it (stand_in_rule, with decision_type 'stand-in').
ALTER TABLE engine.card_programs ADD COLUMN stand_in jsonb;
ALTER TABLE engine.authorizations
  ADD COLUMN stand_in jsonb,
  ADD COLUMN stand_in_rule text;
-- What stand-in approved for a card today is read, only when a rule with a per-card daily limit decides, through
-- authorizations_by_card (card_id, created_at): a card's day is a handful of rows, so no index of its own.
