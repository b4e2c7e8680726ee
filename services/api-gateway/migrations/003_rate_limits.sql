-- Fair limits (issue 21 item 2). A business's own limits, set by the operator; NULL keeps the default.
CREATE TABLE gateway.rate_limits (
  business_id text PRIMARY KEY REFERENCES gateway.businesses (id),
  per_key_rate integer CHECK (per_key_rate > 0),
  per_key_burst integer CHECK (per_key_burst > 0),
  per_business_rate integer CHECK (per_business_rate > 0),
  per_business_burst integer CHECK (per_business_burst > 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((per_key_rate IS NULL) = (per_key_burst IS NULL)),
  CHECK ((per_business_rate IS NULL) = (per_business_burst IS NULL))
);

-- What each gateway instance admitted from each bucket: its running total, written every ~100 ms while it changes
-- (src/rate-limit-sync.ts). Rows not written for minutes are deleted.
CREATE TABLE gateway.rate_limit_usage (
  bucket text NOT NULL,
  instance text NOT NULL,
  used bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (bucket, instance)
);
CREATE INDEX rate_limit_usage_by_updated ON gateway.rate_limit_usage (updated_at);
