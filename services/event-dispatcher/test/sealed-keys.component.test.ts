import { fileURLToPath } from "node:url";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryBus, type MemoryBus } from "@cardhold/bus";
import { TOPICS, type WebhookChangedMessage } from "@cardhold/contracts";
import { migrate, readMigrations } from "@cardhold/db";
import { createTestDatabase, type TestDatabase } from "@cardhold/db/testing";
import { createMetrics, newDataKey, newId, signingKeySealer, type Service } from "@cardhold/platform";
import { eventually } from "../../../test/support/eventually";
import { eventMessage } from "../../../test/support/event-message";
import { FakeReceiver } from "../../../test/support/fake-receiver";
import { sign } from "../src/domain/signature";
import { createService } from "../src/service";

/**
 * The routing table keeps signing keys sealed under SECRETS_KEY: as webhooks.v1 carries them now, sealed here when
 * an older message carried one in plain, and sealed at start for rows an older version stored in plain (004).
 */
const MIGRATIONS = fileURLToPath(new URL("../migrations", import.meta.url));
const SECRETS_KEY = newDataKey();
const keys = signingKeySealer(SECRETS_KEY);
const logger = pino({ level: "silent" });
const LEGACY_ROW_KEY = "legacy-row-signing-key-0123456789";

let pg: TestDatabase;
let bus: MemoryBus;
let service: Service;
let receiver: FakeReceiver;
let legacyRow: { id: string; businessId: string };

const start = () =>
  createService(
    {
      db: pg.db,
      bus,
      logger,
      metrics: createMetrics("dispatcher", false),
      internalToken: "internal-token-for-sealing-tests",
    },
    { secretsKey: SECRETS_KEY, retrySchedule: { delaysMs: [200, 400], windowMs: 2_500 }, claimMs: 5_000 },
  );

beforeAll(async () => {
  pg = await createTestDatabase();
  // A routing table as an older version left it: the key in plain.
  await migrate(pg.db, "dispatcher", (await readMigrations(MIGRATIONS)).slice(0, 3));
  legacyRow = { id: newId("webhook"), businessId: newId("business") };
  receiver = new FakeReceiver();
  await receiver.start();
  await pg.db.query(
    `INSERT INTO dispatcher.webhooks (id, business_id, mode, url, events, signing_key, status, is_default, updated_at)
     VALUES ($1, $2, 'test', $3, '[]', $4, 'enabled', true, now() - interval '1 day')`,
    [legacyRow.id, legacyRow.businessId, receiver.url, LEGACY_ROW_KEY],
  );
  bus = createMemoryBus({ logger, handledWaitMs: 2_000 });
  service = await start();
  await service.start();
});

afterAll(async () => {
  await service?.stop();
  await bus?.stop();
  await receiver?.stop();
  await pg?.stop();
});

async function announce(businessId: string, id: string, key: { sealed: string } | { plain: string }) {
  const data = {
    id,
    url: receiver.url,
    events: [],
    status: "enabled" as const,
    isDefault: true,
    ...("sealed" in key ? { sealedSigningKey: key.sealed } : { signingKey: key.plain }),
  };
  const value: WebhookChangedMessage = {
    type: "webhook.changed",
    businessId,
    mode: "test",
    occurredAt: new Date().toISOString(),
    data,
  };
  await bus.publish([{ topic: TOPICS.webhooks, key: id, value }]);
  await bus.drained();
}

/** Delivers one event to the business's default webhook and returns what the receiver got. */
async function deliverOne(businessId: string) {
  const message = eventMessage(businessId, "card.transaction.created", { amount: 1 });
  await bus.publish([message]);
  return eventually(() => {
    expect(receiver.byEvent(message.eventId)).toHaveLength(1);
    return receiver.byEvent(message.eventId)[0]!;
  }, 5_000);
}

const rowOf = async (id: string) =>
  (
    await pg.db.query<{ row: string; signing_key: string | null; sealed_signing_key: string }>(
      "SELECT row_to_json(w)::text AS row, signing_key, sealed_signing_key FROM dispatcher.webhooks w WHERE id = $1",
      [id],
    )
  ).rows[0]!;

describe("signing keys in the routing table", () => {
  it("stores the sealed key a message carries, and signs with the key it opens to", async () => {
    const businessId = newId("business");
    const id = newId("webhook");
    await announce(businessId, id, { sealed: keys.seal(id, "sealed-message-key-0123456789") });
    const row = await rowOf(id);
    expect(row.row).not.toContain("sealed-message-key");
    expect(row.signing_key).toBeNull();
    expect(keys.open(id, row.sealed_signing_key)).toBe("sealed-message-key-0123456789");
    const got = await deliverOne(businessId);
    expect(got.headers["service-signature"]).toBe(sign(got.raw, "sealed-message-key-0123456789"));
  });

  it("seals a plain key from a message of an older registry before storing it", async () => {
    const businessId = newId("business");
    const id = newId("webhook");
    await announce(businessId, id, { plain: "plain-message-key-0123456789" });
    const row = await rowOf(id);
    expect(row.row).not.toContain("plain-message-key");
    expect(row.sealed_signing_key).toMatch(/^v1:/);
    const got = await deliverOne(businessId);
    expect(got.headers["service-signature"]).toBe(sign(got.raw, "plain-message-key-0123456789"));
  });

  it("signs with the new key once a rolled one arrives (the cache follows the sealed version)", async () => {
    const businessId = newId("business");
    const id = newId("webhook");
    await announce(businessId, id, { sealed: keys.seal(id, "before-roll-key-0123456789") });
    const first = await deliverOne(businessId);
    expect(first.headers["service-signature"]).toBe(sign(first.raw, "before-roll-key-0123456789"));
    await announce(businessId, id, { sealed: keys.seal(id, "after-roll-key-0123456789") });
    const second = await deliverOne(businessId);
    expect(second.headers["service-signature"]).toBe(sign(second.raw, "after-roll-key-0123456789"));
  });

  it("seals at start the rows an older version kept in plain (migration 004), once", async () => {
    const row = await rowOf(legacyRow.id);
    expect(row.signing_key).toBeNull();
    expect(row.row).not.toContain(LEGACY_ROW_KEY);
    expect(keys.open(legacyRow.id, row.sealed_signing_key)).toBe(LEGACY_ROW_KEY);
    const got = await deliverOne(legacyRow.businessId);
    expect(got.headers["service-signature"]).toBe(sign(got.raw, LEGACY_ROW_KEY));
    // A restart finds nothing to seal and leaves the sealed value as it is.
    const again = await start();
    await again.stop();
    expect((await rowOf(legacyRow.id)).sealed_signing_key).toBe(row.sealed_signing_key);
    const { rows } = await pg.db.query("SELECT id FROM dispatcher.webhooks WHERE signing_key IS NOT NULL");
    expect(rows).toEqual([]);
  });
});
