-- Merchants (`mch.` ids): what card controls' allowedMerchants / blockedMerchants and an authorization's `merchant`
-- name. They are reference data shared by every business in both modes, not a business's own rows: this directory is
-- the sandbox's set of test merchants (GET /tools/merchants), one per common category, written once here.
CREATE TABLE engine.merchants (
  id text PRIMARY KEY,
  name text NOT NULL,
  mcc text NOT NULL CHECK (mcc ~ '^[0-9]{4}$'),
  category text NOT NULL,
  city text NOT NULL,
  country text NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX merchants_by_created ON engine.merchants (created_at DESC, id DESC);

-- The list query language confines every statement to one business and mode; the directory belongs to neither, so
-- the merchant list reads it through this view, whose two scope columns hold one constant.
CREATE VIEW engine.merchant_directory AS
  SELECT m.*, 'directory'::text AS business_id, 'directory'::text AS mode FROM engine.merchants m;

INSERT INTO engine.merchants (id, name, mcc, category, city, country, created_at, updated_at) VALUES
  ('mch.11nc8z4WBDwHYCAgb', 'Skyway Air', '4511', 'airlines', 'Lagos', 'NG', '2025-01-06T09:00:00Z', '2025-01-06T09:00:00Z'),
  ('mch.11nc8z4oRVc6pnYy8', 'Eagle Flight Tickets', '4722', 'flight-ticket', 'Abuja', 'NG', '2025-01-06T09:00:01Z', '2025-01-06T09:00:01Z'),
  ('mch.11nc8z56fUiHDdbvo', 'Naija Stakes', '7995', 'betting', 'Lagos', 'NG', '2025-01-06T09:00:02Z', '2025-01-06T09:00:02Z'),
  ('mch.11nc8z5Pu8QRcZPMn', 'Lagoon View Hotel', '7011', 'hospitality', 'Lagos', 'NG', '2025-01-06T09:00:03Z', '2025-01-06T09:00:03Z'),
  ('mch.11nc8z5h9AUSc7gjF', 'Greenfield Fuel Station', '5541', 'fuel-stations', 'Ibadan', 'NG', '2025-01-06T09:00:04Z', '2025-01-06T09:00:04Z'),
  ('mch.11nc8z5zP9SDn6GS8', 'Mainland Fresh Mart', '5411', 'groceries', 'Port Harcourt', 'NG', '2025-01-06T09:00:05Z', '2025-01-06T09:00:05Z'),
  ('mch.11nc8z6Hd8DJxdaQw', 'Mama Put Kitchen', '5812', 'restaurants', 'Enugu', 'NG', '2025-01-06T09:00:06Z', '2025-01-06T09:00:06Z'),
  ('mch.11nc8z6as45tiwSg9', 'Pixel Digital Store', '5818', 'digital-goods', 'Lagos', 'NG', '2025-01-06T09:00:07Z', '2025-01-06T09:00:07Z'),
  ('mch.11nc8z6t7JPAV24Q5', 'Keystone Cash Point', '6011', 'atm-cash', 'Kano', 'NG', '2025-01-06T09:00:08Z', '2025-01-06T09:00:08Z'),
  ('mch.11nc8z7BM9Z8jcKpY', 'Tower Mobile Airtime', '4814', 'telecom', 'Abuja', 'NG', '2025-01-06T09:00:09Z', '2025-01-06T09:00:09Z'),
  ('mch.11nc8z7UbLgMuHSnH', 'Grid Power Distribution', '4900', 'utilities', 'Abuja', 'NG', '2025-01-06T09:00:10Z', '2025-01-06T09:00:10Z'),
  ('mch.11nc8z7mq9vjpNt9g', 'Starlight Cinemas', '7832', 'entertainment', 'Lagos', 'NG', '2025-01-06T09:00:11Z', '2025-01-06T09:00:11Z'),
  ('mch.11nc8z855Vg7GE6NN', 'Harbour Online Shop', '5999', 'retail', 'London', 'GB', '2025-01-06T09:00:12Z', '2025-01-06T09:00:12Z'),
  ('mch.11nc8z8NKDeoryLkZ', 'CloudStream Media', '5815', 'digital-goods', 'San Francisco', 'US', '2025-01-06T09:00:13Z', '2025-01-06T09:00:13Z');

-- Cards printed for a physical program (test mode: POST /simulation/card-programs/:id/print-cards), waiting for a
-- holder. They are not cards of the API yet: POST /cards/:id/link makes one a customer's card (engine.cards, same id,
-- PAN and CVV) and marks it linked here, keeping no second copy of its secrets.
CREATE TABLE engine.printed_cards (
  id text PRIMARY KEY,
  business_id text NOT NULL,
  mode text NOT NULL,
  program_id text NOT NULL,
  last4 text NOT NULL,
  expiry text NOT NULL,
  pan_encrypted text,
  cvv_encrypted text,
  printed_at timestamptz NOT NULL,
  linked_at timestamptz,
  CONSTRAINT printed_cards_secrets_until_linked CHECK ((linked_at IS NULL) = (pan_encrypted IS NOT NULL AND cvv_encrypted IS NOT NULL))
);
CREATE INDEX printed_cards_by_program ON engine.printed_cards (program_id);

-- A card's enrolment for one-time passwords online: SafeToken or 3-D Secure, at most one of each per card (enrolling
-- again replaces the contact details).
CREATE TABLE engine.card_enrollments (
  card_id text NOT NULL,
  type text NOT NULL CHECK (type IN ('safetoken', '3ds')),
  business_id text NOT NULL,
  mode text NOT NULL,
  phone_number text,
  email text,
  status text NOT NULL CHECK (status IN ('enrolled')),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (card_id, type),
  CONSTRAINT card_enrollments_contact CHECK (phone_number IS NOT NULL OR email IS NOT NULL)
);
