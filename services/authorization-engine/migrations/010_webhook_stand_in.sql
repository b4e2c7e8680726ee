-- A webhook may carry stand-in rules too (webhooks.v1 standIn, the same shape as a program's): a capture gets its
-- card program's rules when the program has any, else those of the webhook that decides it, else the flat timeout
-- default. An authorization keeps where the rules it kept (stand_in) came from: 'program' or 'webhook'; null when it
-- kept none, and on authorizations from before this column (only programs had rules then: read as 'program').
ALTER TABLE engine.webhooks ADD COLUMN stand_in jsonb;
ALTER TABLE engine.authorizations
  ADD COLUMN stand_in_source text CHECK (stand_in_source IN ('program', 'webhook'));
