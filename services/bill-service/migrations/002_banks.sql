-- Account names resolved through GET /tools/banks/resolve: a repeat answers from here, the same name.
-- Only names found are kept (an account that does not exist yet may be opened later).
CREATE TABLE bills.resolved_bank_accounts (
  business_id text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('test', 'live')),
  -- The bank's CBN code (058), whichever code the request named it by.
  bank_code text NOT NULL,
  account_number text NOT NULL CHECK (account_number ~ '^[0-9]{10}$'),
  account_name text NOT NULL,
  -- The account-name provider that answered (sandbox, or the live provider's name).
  provider text NOT NULL,
  resolved_at timestamptz NOT NULL,
  PRIMARY KEY (business_id, mode, bank_code, account_number)
);
