import { migrate, OUTBOX_NOTIFY_SETTING, type Db, type Migration } from "@cardhold/db";

/** The channel an insert into `<schema>.outbox` NOTIFYs when its session asks for it (DbOptions.notifyOutbox). */
export const outboxChannel = (schema: string) => `${schema}_outbox`;

/** Outbox and inbox tables every service keeps in its own schema, recorded in <schema>.messaging_migrations. */
function messagingMigrations(schema: string): Migration[] {
  return [
    {
      version: 1,
      name: "outbox_and_inbox",
      sql: `
        CREATE TABLE ${schema}.outbox (
          seq bigserial PRIMARY KEY,
          id text NOT NULL UNIQUE,
          topic text NOT NULL,
          key text NOT NULL,
          value text,
          headers jsonb NOT NULL DEFAULT '{}',
          created_at timestamptz NOT NULL DEFAULT now(),
          published_at timestamptz
        );
        CREATE INDEX outbox_unpublished ON ${schema}.outbox (seq) WHERE published_at IS NULL;
        CREATE TABLE ${schema}.inbox (
          consumer text NOT NULL,
          message_id text NOT NULL,
          handled_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (consumer, message_id)
        );
        CREATE TABLE ${schema}.outbox_relay_lease (
          name text PRIMARY KEY,
          owner text NOT NULL,
          expires_at timestamptz NOT NULL
        );`,
    },
    {
      // A published row is deleted, not marked: one WAL record instead of a new row version and its index entries.
      version: 2,
      name: "outbox_rows_deleted_once_published",
      sql: `
        DELETE FROM ${schema}.outbox WHERE published_at IS NOT NULL;
        ALTER TABLE ${schema}.outbox DROP CONSTRAINT outbox_pkey, DROP CONSTRAINT outbox_id_key, DROP COLUMN published_at;
        ALTER TABLE ${schema}.outbox ADD PRIMARY KEY (id);
        CREATE INDEX outbox_in_order ON ${schema}.outbox (seq);`,
    },
    {
      // Until when another relay was seen contending for the lease: the holder then reads the table before memory.
      version: 3,
      name: "relay_lease_others_until",
      sql: `ALTER TABLE ${schema}.outbox_relay_lease ADD COLUMN others_until timestamptz NOT NULL DEFAULT '-infinity';`,
    },
    {
      // Sessions that ask for it (DbOptions.notifyOutbox) wake the relay holding the lease at each commit that adds
      // rows; others (the all-in-one's) pay the setting's check only. One notification per transaction: PostgreSQL
      // folds repeats of the same channel and payload.
      version: 4,
      name: "outbox_insert_notifies",
      sql: `
        CREATE OR REPLACE FUNCTION ${schema}.outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $fn$
        BEGIN
          IF current_setting('${OUTBOX_NOTIFY_SETTING}', true) = 'on' THEN
            PERFORM pg_notify('${outboxChannel(schema)}', '');
          END IF;
          RETURN NULL;
        END $fn$;
        CREATE TRIGGER outbox_notify AFTER INSERT ON ${schema}.outbox
          FOR EACH STATEMENT EXECUTE FUNCTION ${schema}.outbox_notify();`,
    },
  ];
}

export function migrateMessaging(db: Db, schema: string): Promise<number[]> {
  return migrate(db, schema, messagingMigrations(schema), "messaging_migrations");
}
