import { fileURLToPath } from "node:url";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryBus, type MemoryBus } from "@cardhold/bus";
import { TOPICS, type WebhookChangedMessage } from "@cardhold/contracts";
import { migrate, readMigrations } from "@cardhold/db";
import { createTestDatabase, type TestDatabase } from "@cardhold/db/testing";
import { createMetrics, listen, newId, type Listening, type Service } from "@cardhold/platform";
import { eventually } from "../../../test/support/eventually";
import { createService } from "../src/service";
import { webhookUseCases } from "../src/webhooks";
import { call, INTERNAL, keyIn, keys, SECRETS_KEY, type Caller, type Published } from "./harness";

/**
 * Migrations 003 and 004 on a database as the registry left it before: businesses whose test and live default
 * webhooks share one signing key, every key in plain. The service then starts as after an upgrade (003 and 004
 * applied, the plain keys sealed, the queue published).
 */
const MIGRATIONS = fileURLToPath(new URL("../migrations", import.meta.url));
const SHARED = "shared-default-signing-key-0123456789";
const logger = pino({ level: "silent" });

let pg: TestDatabase;
let bus: MemoryBus;
let service: Service;
let http: Listening;
const published: Published[] = [];
const before = new Date(Date.now() - 86_400_000);

interface Seeded {
  businessId: string;
  testDefault: string;
  liveDefault: string;
}

async function seedBusiness(testKey: string, liveKey: string): Promise<Seeded> {
  const seeded = { businessId: newId("business"), testDefault: newId("webhook"), liveDefault: newId("webhook") };
  for (const [id, mode, key] of [
    [seeded.testDefault, "test", testKey],
    [seeded.liveDefault, "live", liveKey],
  ] as const) {
    await pg.db.query(
      `INSERT INTO webhooks.webhooks (id, business_id, mode, name, url, signing_key, status, is_default, created_at, updated_at)
       VALUES ($1, $2, $3, 'default', 'https://hooks.example.com/default', $4, 'enabled', true, $5, $5)`,
      [id, seeded.businessId, mode, key, before],
    );
  }
  return seeded;
}

/** The key a row holds: only ever sealed (the plain column is cleared), opened with the service's SECRETS_KEY. */
const keyOf = async (id: string) => {
  const { rows } = await pg.db.query<{ signing_key: string | null; sealed_signing_key: string }>(
    "SELECT signing_key, sealed_signing_key FROM webhooks.webhooks WHERE id = $1",
    [id],
  );
  expect(rows[0]!.signing_key).toBeNull();
  return keys.open(id, rows[0]!.sealed_signing_key);
};

let shared: Seeded;
let alsoShared: Seeded;
let distinct: Seeded;
let extraWebhook: string;

beforeAll(async () => {
  pg = await createTestDatabase();
  const all = await readMigrations(MIGRATIONS);
  await migrate(pg.db, "webhooks", all.slice(0, 2));
  shared = await seedBusiness(SHARED, SHARED);
  alsoShared = await seedBusiness(SHARED, SHARED);
  distinct = await seedBusiness("test-only-signing-key-0123456789", "live-only-signing-key-0123456789");
  // A webhook the business created itself keeps its key whatever it is: only the defaults were shared by design.
  extraWebhook = newId("webhook");
  await pg.db.query(
    `INSERT INTO webhooks.webhooks (id, business_id, mode, name, url, events, signing_key, status, is_default, created_at, updated_at)
     VALUES ($1, $2, 'test', 'mine', 'https://hooks.example.com/mine', '["card.transaction.created"]', $3, 'enabled', false, $4, $4)`,
    [extraWebhook, shared.businessId, SHARED, before],
  );

  bus = createMemoryBus({ logger, handledWaitMs: 2_000 });
  await bus.subscribe({
    group: "test-webhooks",
    topics: [TOPICS.webhooks],
    handler: async (m) => void published.push({ key: m.key, value: m.value as WebhookChangedMessage | null }),
  });
  service = await createService(
    { db: pg.db, bus, logger, metrics: createMetrics("webhook-registry", false), internalToken: INTERNAL },
    { secretsKey: SECRETS_KEY },
  );
  await service.start();
  http = await listen(service.app, 0);
});

afterAll(async () => {
  await http?.close();
  await service?.stop();
  await bus?.stop();
  await pg?.stop();
});

describe("migration 003: a signing key per mode for the default webhook", () => {
  it("gives the test default of a business that shared its key a fresh one and keeps the live key", async () => {
    const fresh = await keyOf(shared.testDefault);
    expect(fresh).toMatch(/^[0-9a-f]{64}$/);
    expect(fresh).not.toBe(SHARED);
    expect(await keyOf(shared.liveDefault)).toBe(SHARED);
    // Every business gets its own fresh key.
    expect(await keyOf(alsoShared.testDefault)).not.toBe(fresh);
    expect(await keyOf(alsoShared.liveDefault)).toBe(SHARED);
  });

  it("leaves businesses whose keys already differ, and non-default webhooks, alone", async () => {
    expect(await keyOf(distinct.testDefault)).toBe("test-only-signing-key-0123456789");
    expect(await keyOf(distinct.liveDefault)).toBe("live-only-signing-key-0123456789");
    expect(await keyOf(extraWebhook)).toBe(SHARED);
  });

  it("answers each mode's secret with that mode's key only", async () => {
    const test: Caller = { businessId: shared.businessId, mode: "test" };
    const live: Caller = { businessId: shared.businessId, mode: "live" };
    expect((await call(http, test, "GET", `/webhooks/${shared.testDefault}/secret`)).body.data.signingKey).toBe(
      await keyOf(shared.testDefault),
    );
    expect((await call(http, live, "GET", `/webhooks/${shared.liveDefault}/secret`)).body.data.signingKey).toBe(SHARED);
    expect((await call(http, test, "GET", `/webhooks/${shared.liveDefault}/secret`)).status).toBe(404);
  });

  it("publishes the re-keyed webhooks on webhooks.v1 at start, newer than what the dispatcher has, once", async () => {
    const rekeyed = [shared.testDefault, alsoShared.testDefault];
    // Sealing (004) publishes every webhook again too, so each is published once, sealed.
    const all = [shared, alsoShared, distinct].flatMap((b) => [b.testDefault, b.liveDefault]).concat(extraWebhook);
    await eventually(() => expect(published.map((m) => m.key).sort()).toEqual([...all].sort()), 5_000);
    for (const id of rekeyed) {
      const message = published.find((m) => m.key === id)!.value!;
      expect(message).toMatchObject({ type: "webhook.changed", mode: "test", data: { id, isDefault: true } });
      expect(keyIn(message)).toBe(await keyOf(id));
      // The dispatcher keeps the newest version of each webhook: this one must supersede the shared key's.
      expect(Date.parse(message.occurredAt)).toBeGreaterThan(before.getTime());
    }
    expect((await pg.db.query("SELECT count(*)::int AS n FROM webhooks.republish")).rows[0]).toEqual({ n: 0 });

    // A restart (or a second replica starting at the same time) finds the queue empty: nothing is published twice.
    expect(await webhookUseCases(pg.db, { wake() {} }, { allowPrivateTargets: false, keys }).republishQueued()).toBe(0);
    expect(published).toHaveLength(all.length);
  });
});

describe("migration 004: signing keys sealed at rest", () => {
  it("seals every plain key at start: the table holds none, the API and webhooks.v1 give back the same keys", async () => {
    const { rows } = await pg.db.query<{ id: string; row: string }>(
      "SELECT id, row_to_json(w)::text AS row FROM webhooks.webhooks w",
    );
    expect(rows.length).toBe(7);
    for (const { row } of rows) {
      for (const plain of [SHARED, "test-only-signing-key-0123456789", "live-only-signing-key-0123456789"])
        expect(row).not.toContain(plain);
      expect(JSON.parse(row)).toMatchObject({
        signing_key: null,
        sealed_signing_key: expect.stringMatching(/^v1:[A-Za-z0-9+/]+=*$/),
      });
    }
    expect(await keyOf(distinct.testDefault)).toBe("test-only-signing-key-0123456789");
    const test: Caller = { businessId: distinct.businessId, mode: "test" };
    expect((await call(http, test, "GET", `/webhooks/${distinct.testDefault}/secret`)).body.data.signingKey).toBe(
      "test-only-signing-key-0123456789",
    );
    await eventually(() => expect(published.find((m) => m.key === extraWebhook)).toBeDefined(), 5_000);
    const message = published.find((m) => m.key === extraWebhook)!.value!;
    expect(JSON.stringify(message)).not.toContain(SHARED);
    expect(message.data.signingKey).toBeUndefined();
    expect(keyIn(message)).toBe(SHARED);
  });

  it("is idempotent: a restart (or a second replica) finds nothing to seal and publishes nothing more", async () => {
    const again = await createService(
      { db: pg.db, bus, logger, metrics: createMetrics("webhook-registry", false), internalToken: INTERNAL },
      { secretsKey: SECRETS_KEY },
    );
    await again.stop();
    expect((await pg.db.query("SELECT count(*)::int AS n FROM webhooks.republish")).rows[0]).toEqual({ n: 0 });
    expect(
      (await pg.db.query("SELECT count(*)::int AS n FROM webhooks.webhooks WHERE signing_key IS NOT NULL")).rows[0],
    ).toEqual({ n: 0 });
    expect(await keyOf(extraWebhook)).toBe(SHARED);
  });
});
