-- Accounts hold money as a posted balance and the part of it that is held (reserved for authorizations).
-- role: settlement (the business's default account per currency), customer (opened by the business), card (a card's
-- own funding account), virtual (holds nothing: pay-ins land in its settlement account), network-clearing and
-- external (the outside world's side of every movement; not shown by the API and allowed below zero).
CREATE TABLE engine.accounts (
  id text PRIMARY KEY,
  business_id text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('test', 'live')),
  role text NOT NULL CHECK (role IN ('settlement', 'customer', 'card', 'virtual', 'network-clearing', 'external')),
  type text NOT NULL CHECK (type IN ('main', 'sub', 'virtual', 'system')),
  name text NOT NULL,
  currency text NOT NULL,
  customer_id text,
  reference text,
  settlement_account_id text REFERENCES engine.accounts (id),
  status text NOT NULL DEFAULT 'active',
  deposit_account_number text UNIQUE,
  deposit_channels jsonb NOT NULL DEFAULT '[]',
  metadata jsonb NOT NULL DEFAULT '{}',
  posted bigint NOT NULL DEFAULT 0,
  held bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CONSTRAINT accounts_held_not_negative CHECK (held >= 0),
  -- The last line of defence of "available never below zero": the engine checks first, under a row lock.
  -- posted and held stay 0 on system accounts (see ledger_entries).
  CONSTRAINT accounts_funded CHECK (role IN ('network-clearing', 'external') OR posted - held >= 0)
);
CREATE INDEX accounts_by_created ON engine.accounts (business_id, mode, created_at DESC, id DESC);
CREATE UNIQUE INDEX accounts_reference ON engine.accounts (business_id, mode, reference) WHERE reference IS NOT NULL;
-- One default (settlement) account and one of each system account per business, mode and currency.
CREATE UNIQUE INDEX accounts_one_per_currency ON engine.accounts (business_id, mode, currency, role)
  WHERE role IN ('settlement', 'network-clearing', 'external');

-- The accounts the API shows: everything but the system accounts.
CREATE VIEW engine.business_accounts AS
  SELECT * FROM engine.accounts WHERE role NOT IN ('network-clearing', 'external');

-- Double entry: a movement is a set of entries that sum to zero; balance_after is the account's posted balance.
-- System accounts (network-clearing, external) keep no running balance (their balance is the sum of their entries),
-- so the authorizations of one business never queue on their rows; their entries have no balance_after.
CREATE TABLE engine.ledger_movements (
  id text PRIMARY KEY,
  business_id text NOT NULL,
  mode text NOT NULL,
  kind text NOT NULL,
  reference text NOT NULL,
  description text NOT NULL,
  currency text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE TABLE engine.ledger_entries (
  id text PRIMARY KEY,
  movement_id text NOT NULL REFERENCES engine.ledger_movements (id),
  business_id text NOT NULL,
  mode text NOT NULL,
  account_id text NOT NULL REFERENCES engine.accounts (id),
  amount bigint NOT NULL CHECK (amount <> 0),
  balance_after bigint,
  kind text NOT NULL,
  reference text NOT NULL,
  description text NOT NULL,
  currency text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX ledger_entries_by_account ON engine.ledger_entries (account_id, created_at DESC, id DESC);
CREATE INDEX ledger_entries_by_movement ON engine.ledger_entries (movement_id);

-- Pay-ins already credited, by the sender's reference (a repeated pay-in credits nothing more).
CREATE TABLE engine.pay_ins (
  business_id text NOT NULL,
  mode text NOT NULL,
  reference text NOT NULL,
  movement_id text NOT NULL REFERENCES engine.ledger_movements (id),
  PRIMARY KEY (business_id, mode, reference)
);

CREATE TABLE engine.card_programs (
  id text PRIMARY KEY,
  business_id text NOT NULL,
  mode text NOT NULL,
  name text NOT NULL,
  description text,
  network text NOT NULL,
  type text NOT NULL,
  quantity integer,
  currency text NOT NULL,
  distribution jsonb,
  personalization jsonb,
  funding_source_type text NOT NULL CHECK (funding_source_type IN ('card-account', 'settlement-account')),
  settlement_account_id text NOT NULL REFERENCES engine.accounts (id),
  transaction_fee bigint NOT NULL DEFAULT 0,
  webhook_id text,
  timeout_default text CHECK (timeout_default IN ('approve', 'decline')),
  status text NOT NULL CHECK (status IN ('new', 'live')),
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX card_programs_by_created ON engine.card_programs (business_id, mode, created_at DESC, id DESC);

-- PAN and CVV are stored encrypted (AES-256-GCM); the PIN only as a scrypt hash.
CREATE TABLE engine.cards (
  id text PRIMARY KEY,
  business_id text NOT NULL,
  mode text NOT NULL,
  program_id text NOT NULL REFERENCES engine.card_programs (id),
  customer_id text NOT NULL,
  reference text NOT NULL,
  type text NOT NULL,
  network text NOT NULL,
  currency text NOT NULL,
  status text NOT NULL CHECK (status IN ('inactive', 'active', 'blocked', 'terminated')),
  funding_account_id text NOT NULL REFERENCES engine.accounts (id),
  card_holder_name text NOT NULL,
  last4 text NOT NULL,
  expiry text NOT NULL,
  pan_encrypted text NOT NULL,
  cvv_encrypted text NOT NULL,
  pin_hash text,
  controls jsonb NOT NULL DEFAULT '{}',
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CONSTRAINT cards_reference_unique UNIQUE (business_id, mode, reference)
);
CREATE INDEX cards_by_created ON engine.cards (business_id, mode, created_at DESC, id DESC);

CREATE TABLE engine.authorizations (
  id text PRIMARY KEY,
  business_id text NOT NULL,
  mode text NOT NULL,
  card_id text NOT NULL REFERENCES engine.cards (id),
  customer_id text NOT NULL,
  account_id text NOT NULL REFERENCES engine.accounts (id),
  settlement_account_id text NOT NULL REFERENCES engine.accounts (id),
  program_id text NOT NULL,
  type text NOT NULL CHECK (type IN ('check', 'capture')),
  status text NOT NULL CHECK (status IN ('pending', 'approved', 'declined', 'reversed')),
  amount bigint NOT NULL,
  fees bigint NOT NULL,
  currency text NOT NULL,
  channel text NOT NULL,
  mcc text,
  merchant_id text,
  decision_type text,
  status_reason text,
  decline_reason text,
  reserved boolean NOT NULL DEFAULT false,
  held bigint NOT NULL DEFAULT 0 CHECK (held >= 0),
  debited bigint NOT NULL DEFAULT 0 CHECK (debited >= 0),
  pending_amount bigint,
  pending_fees bigint,
  decision_due_at timestamptz,
  decision_event_id text,
  timeout_default text NOT NULL,
  webhook_id text,
  card_balance bigint,
  card_holder_name text,
  network_reference text NOT NULL,
  network_data jsonb NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  -- A network request sent again (same reference) is the same authorization: it never charges twice.
  CONSTRAINT authorizations_network_reference UNIQUE (business_id, mode, card_id, network_reference)
);
CREATE INDEX authorizations_by_created ON engine.authorizations (business_id, mode, created_at DESC, id DESC);
CREATE INDEX authorizations_by_card ON engine.authorizations (card_id, created_at);
CREATE INDEX authorizations_awaiting ON engine.authorizations (decision_due_at) WHERE decision_due_at IS NOT NULL;

CREATE TABLE engine.transactions (
  id text PRIMARY KEY,
  business_id text NOT NULL,
  mode text NOT NULL,
  authorization_id text NOT NULL REFERENCES engine.authorizations (id),
  card_id text NOT NULL,
  customer_id text NOT NULL,
  type text NOT NULL,
  channel text NOT NULL,
  currency text NOT NULL,
  amount bigint NOT NULL,
  fees bigint NOT NULL,
  mcc text,
  network_data jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX transactions_by_created ON engine.transactions (business_id, mode, created_at DESC, id DESC);
CREATE INDEX transactions_by_authorization ON engine.transactions (authorization_id);

-- The webhooks routing card.authorization.request, from webhooks.v1, for their timeoutDefault.
CREATE TABLE engine.webhooks (
  id text PRIMARY KEY,
  business_id text NOT NULL,
  mode text NOT NULL,
  events jsonb NOT NULL,
  status text NOT NULL,
  is_default boolean NOT NULL,
  timeout_default text
);
CREATE INDEX engine_webhooks_by_business ON engine.webhooks (business_id, mode);

-- Ledger commands from the bill-service, by command id: a command sent again gets its first result again.
CREATE TABLE engine.ledger_commands (
  command_id text PRIMARY KEY,
  business_id text NOT NULL,
  mode text NOT NULL,
  type text NOT NULL,
  reference text NOT NULL,
  status text NOT NULL,
  account_id text,
  amount bigint NOT NULL,
  currency text,
  movement_id text REFERENCES engine.ledger_movements (id),
  -- A refund names the debit it gives back; at most one refund per debit moves money.
  refunds text UNIQUE,
  result jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
