/** Apart from dev.ts, which loads the platform: `cardhold dev --help` and the other commands load none of it. */
export const DEV_USAGE = `usage: cardhold dev
  Runs every service in one process, on an embedded PostgreSQL under DATA_DIR, and prints the URL and a test key
  of the default business. Ctrl-C stops it.

  Settings (environment variables): PORT (8080), HOST (127.0.0.1), DATA_DIR (./.data), LOG_LEVEL (warn),
  DEFAULT_WEBHOOK_URL (http://127.0.0.1:4000/webhook), OPERATOR_TOKEN (unset: no admin endpoints),
  POSTGRES_SETTINGS (extra settings of the embedded PostgreSQL as a JSON object, e.g.
  '{"shared_preload_libraries":"pg_stat_statements"}' to profile statements),
  RATE_LIMIT_PER_KEY (50) and RATE_LIMIT_BURST_PER_KEY (100), RATE_LIMIT_PER_BUSINESS (100) and
  RATE_LIMIT_BURST_PER_BUSINESS (200): requests a second and bursts (README, "Limits"),
  DELAYED_REQUEST_AFTER_MS (10000): when a write of a key with delayed requests on is answered 202,
  ISO8583_PORT (unset: off): the ISO 8583 card-network interface's TCP port, on HOST, ISO8583_TIMEOUT_MS (4000):
  how long the network waits for an answer, and ISO8583_RETENTION_HOURS (168): how long an answer is kept for the
  message's repeats.
  --help, -h                 print this help`;
