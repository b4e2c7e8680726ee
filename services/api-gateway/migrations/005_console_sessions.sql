-- The console's sessions (issue 22): a browser signs in with a secret key and gets an opaque session id in an HttpOnly
-- cookie. Only the id's SHA-256 is stored, and the key's id, never the key: a revoked key ends its sessions at once.
-- The CSRF token is kept in clear: the page reads it back (GET /console/api/session) after a reload.
CREATE TABLE gateway.console_sessions (
  id_hash text PRIMARY KEY,
  key_id text NOT NULL REFERENCES gateway.api_keys (id),
  business_id text NOT NULL REFERENCES gateway.businesses (id),
  mode text NOT NULL CHECK (mode IN ('test', 'live')),
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL,
  -- Written at most once a minute per session (src/console/session-rules.ts): the idle limit counts from here.
  last_seen_at timestamptz NOT NULL,
  -- The absolute limit: created_at + 12 h.
  expires_at timestamptz NOT NULL
);
-- Sign-in sweeps sessions past their absolute limit.
CREATE INDEX console_sessions_by_expiry ON gateway.console_sessions (expires_at);
