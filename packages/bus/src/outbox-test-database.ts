import { afterAll, beforeAll, beforeEach } from "vitest";
import type { Db } from "@cardhold/db";
import { createTestDatabase, type TestDatabase } from "@cardhold/db/testing";
import { migrateMessaging } from "./messaging-tables";

/**
 * For an outbox test file: a test database with the messaging tables of schema `svc`, whose outbox and relay lease
 * are emptied before each test. Returns the database's Db once the file's tests run.
 */
export function useOutboxDatabase(): () => Db {
  let server: TestDatabase | undefined;
  beforeAll(async () => {
    server = await createTestDatabase();
    await migrateMessaging(server.db, "svc");
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(async () => {
    await server!.db.query("DELETE FROM svc.outbox; DELETE FROM svc.outbox_relay_lease");
  });
  return () => server!.db;
}
