-- Deposit channels: an account may have several (POST /accounts/:id/deposit-channels). Every channel's account number
-- is here, unique across the platform, and a pay-in finds its account by it. engine.accounts.deposit_account_number
-- keeps the number of the channel an account was opened with.
CREATE TABLE engine.deposit_account_numbers (
  account_number text PRIMARY KEY,
  account_id text NOT NULL,
  business_id text NOT NULL,
  mode text NOT NULL
);
CREATE INDEX deposit_account_numbers_by_account ON engine.deposit_account_numbers (account_id);
INSERT INTO engine.deposit_account_numbers (account_number, account_id, business_id, mode)
  SELECT deposit_account_number, id, business_id, mode FROM engine.accounts WHERE deposit_account_number IS NOT NULL;

-- Channel records show createdAt and updatedAt, and the sandbox bank's code is 000. A channel made so far was made
-- with its account and never changed: both times are the account's creation.
UPDATE engine.accounts a
   SET deposit_channels = (
         SELECT jsonb_agg(
                  e.channel || jsonb_build_object(
                    'bankCode', '000',
                    'createdAt', to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                    'updatedAt', to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
                  ORDER BY e.position)
           FROM jsonb_array_elements(a.deposit_channels) WITH ORDINALITY AS e(channel, position))
 WHERE a.deposit_channels <> '[]'::jsonb;
