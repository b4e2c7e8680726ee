import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pino } from "pino";
import { TOPICS, type WebhookChangedMessage } from "@cardhold/contracts";
import { newId } from "@cardhold/platform";
import { eventually } from "../../../test/support/eventually";
import { eventMessage } from "../../../test/support/event-message";
import { FakeReceiver } from "../../../test/support/fake-receiver";
import { createQueueVacuum } from "../src/store/queue-vacuum";
import { startDispatcher, type DispatcherHarness } from "./harness";

let h: DispatcherHarness;
let receiver: FakeReceiver;

beforeAll(async () => {
  h = await startDispatcher({ queueVacuum: { everyDeliveries: 20, minIntervalMs: 0 } });
  receiver = new FakeReceiver();
  await receiver.start();
});
afterAll(async () => {
  await receiver.stop();
  await h.stop();
});

const vacuums = async () =>
  Number(
    (
      await h.pg.db.query<{ n: string }>(
        "SELECT vacuum_count AS n FROM pg_stat_user_tables WHERE schemaname = 'dispatcher' AND relname = 'deliveries'",
      )
    ).rows[0]!.n,
  );

describe("the deliveries table, a queue, is vacuumed by the dispatcher", () => {
  it("after every so many finished deliveries, in the background", async () => {
    const businessId = newId("business");
    const data = {
      id: newId("webhook"),
      url: receiver.url,
      events: [],
      signingKey: "key",
      status: "enabled" as const,
      isDefault: true,
    };
    const change: WebhookChangedMessage = {
      type: "webhook.changed",
      businessId,
      mode: "test",
      occurredAt: new Date().toISOString(),
      data,
    };
    await h.bus.publish([{ topic: TOPICS.webhooks, key: data.id, value: change }]);
    const before = await vacuums();
    await h.bus.publish(
      Array.from({ length: 50 }, (_, i) => eventMessage(businessId, "card.transaction.created", { n: i })),
    );
    await eventually(async () => expect(receiver.received.length).toBe(50));
    await eventually(async () => expect(await vacuums()).toBeGreaterThan(before));
  });

  it("at most once per interval, and a failed vacuum is logged, not thrown", async () => {
    const statements: string[] = [];
    const warnings: unknown[] = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => void warnings.push(line) });
    const failing = {
      query: async (text: string) => {
        statements.push(text);
        throw new Error("no");
      },
    };
    const vacuum = createQueueVacuum(failing as never, logger, { everyDeliveries: 10, minIntervalMs: 60_000 });
    vacuum.finished(9);
    expect(statements).toEqual([]);
    vacuum.finished(1);
    await vacuum.stop();
    vacuum.finished(100);
    await vacuum.stop();
    expect(statements).toEqual(["VACUUM (SKIP_LOCKED, TRUNCATE false) dispatcher.deliveries"]);
    expect(warnings).toHaveLength(1);
  });
});
