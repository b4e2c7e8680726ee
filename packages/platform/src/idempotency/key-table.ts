import { migrate, type Db, type Migration } from "@cardhold/db";

/** The idempotency-key table every service keeps in its own schema, recorded in <schema>.idempotency_migrations. */
function idempotencyMigrations(schema: string): Migration[] {
  return [
    {
      version: 1,
      name: "idempotency_keys",
      sql: `
        CREATE TABLE ${schema}.idempotency_keys (
          business_id text NOT NULL,
          mode text NOT NULL,
          key text NOT NULL,
          fingerprint text NOT NULL,
          created_at timestamptz NOT NULL,
          claim text,
          claimed_until timestamptz,
          effect jsonb,
          answer_status integer,
          answer_body text,
          PRIMARY KEY (business_id, mode, key)
        );
        CREATE INDEX idempotency_keys_by_age ON ${schema}.idempotency_keys (created_at);`,
    },
  ];
}

export function migrateIdempotency(db: Db, schema: string): Promise<number[]> {
  return migrate(db, schema, idempotencyMigrations(schema), "idempotency_migrations");
}
