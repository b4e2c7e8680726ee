-- A foreign key check locks the row it points to (FOR KEY SHARE) for every row inserted. The rows the real-time path
-- points to are shared by every authorization running at once: a program's settlement account, the network-clearing
-- account, a card, its funding account. Many transactions locking one row turn its lock into a MultiXact (a shared
-- lock list written to disk), and each insert pays a trigger and a lock. Measured at 250 authorizations/s
-- (bench/README.md, issue 12, ninth session): PostgreSQL CPU per authorization 2.15/2.12 -> 1.98/1.93 ms all-in-one,
-- 2.11/2.23 -> 1.97/2.12 ms distributed.
-- The engine is the only writer of its schema and deletes no account, card, movement or authorization (a card or an
-- account is closed by its status); it inserts references to rows it read or wrote in the same transaction. test/support/ledger-invariants.ts checks for dangling references after every flow test and bench run.
ALTER TABLE engine.ledger_entries DROP CONSTRAINT IF EXISTS ledger_entries_account_id_fkey;
ALTER TABLE engine.ledger_entries DROP CONSTRAINT IF EXISTS ledger_entries_movement_id_fkey;
ALTER TABLE engine.authorizations DROP CONSTRAINT IF EXISTS authorizations_card_id_fkey;
ALTER TABLE engine.authorizations DROP CONSTRAINT IF EXISTS authorizations_account_id_fkey;
ALTER TABLE engine.authorizations DROP CONSTRAINT IF EXISTS authorizations_settlement_account_id_fkey;
ALTER TABLE engine.transactions DROP CONSTRAINT IF EXISTS transactions_authorization_id_fkey;
