import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually";
import {
  businessCreated,
  call,
  keyIn,
  previousKeyIn,
  startHarness,
  type Caller,
  type Harness,
  type Published,
} from "./harness";

/** The registry's clock (a roll's grace starts from it); each test moves it. */
let clock = new Date("2026-03-01T12:00:00.000Z");
const advance = (ms: number) => void (clock = new Date(clock.getTime() + ms));
const HOUR = 3_600_000;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ now: () => clock });
});
afterAll(async () => {
  await h?.stop();
});

const api = (as: Caller, method: string, path: string, body?: unknown) => call(h.http, as, method, path, body);
const messagesFor = (id: string): Published[] => h.published.filter((m) => m.key === id);
const awaitMessages = (id: string, n: number) =>
  eventually(() => {
    expect(messagesFor(id)).toHaveLength(n);
    return messagesFor(id);
  }, 5_000);

async function business(): Promise<Caller> {
  const message = businessCreated();
  await h.bus.publish([message]);
  const test: Caller = { businessId: message.value.businessId, mode: "test" };
  await eventually(
    async () => expect((await api(test, "GET", "/webhooks?filter=isDefault:true")).body.data).toHaveLength(1),
    5_000,
  );
  return test;
}

async function webhook(as: Caller, signingKey: string): Promise<string> {
  const res = await api(as, "POST", "/webhooks", {
    name: "transactions",
    events: ["card.transaction.created"],
    url: "https://hooks.example.com/standard",
    signingKey,
  });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

describe("GET /webhooks/:id/secret", () => {
  it("answers the signing key and the same key as a Standard Webhooks secret, which verifies with standardwebhooks", async () => {
    const as = await business();
    const id = await webhook(as, "standard-signing-key-0123");
    const res = await api(as, "GET", `/webhooks/${id}/secret`);
    expect(res).toEqual({
      status: 200,
      body: {
        code: "success",
        data: {
          signingKey: "standard-signing-key-0123",
          standardWebhooksSecret: `whsec_${Buffer.from("standard-signing-key-0123").toString("base64")}`,
        },
      },
    });
    // The secret's key bytes are the signing key's: the library signs what HMAC-SHA256 under the signing key gives.
    const timestamp = new Date(1_772_366_400_000);
    const signed = new Webhook(res.body.data.standardWebhooksSecret).sign("evt.1", timestamp, '{"a":1}');
    const hmac = createHmac("sha256", "standard-signing-key-0123").update('evt.1.1772366400.{"a":1}').digest("base64");
    expect(signed).toBe(`v1,${hmac}`);
  });

  it("is the only answer that holds it; an unknown webhook is 404", async () => {
    const as = await business();
    const id = await webhook(as, "never-elsewhere-key-0123");
    const { standardWebhooksSecret } = (await api(as, "GET", `/webhooks/${id}/secret`)).body.data;
    const others = [
      await api(as, "GET", `/webhooks/${id}`),
      await api(as, "GET", "/webhooks"),
      await api(as, "PUT", `/webhooks/${id}`, { name: "renamed" }),
      await api(as, "POST", `/webhooks/${id}/enable`, {}),
    ];
    for (const other of others) {
      expect(other.status).toBe(200);
      expect(JSON.stringify(other.body)).not.toContain(standardWebhooksSecret.slice("whsec_".length));
      expect(JSON.stringify(other.body)).not.toContain("never-elsewhere-key");
    }
    expect(JSON.stringify(messagesFor(id))).not.toContain(standardWebhooksSecret.slice("whsec_".length));
    expect(await api(as, "GET", "/webhooks/wh.unknown/secret")).toMatchObject({
      status: 404,
      body: { code: "not-found" },
    });
  });
});

describe("POST /webhooks/:id/secret/roll", () => {
  it("answers the new key in both forms and keeps the old one, sealed, for 24 h", async () => {
    const as = await business();
    const id = await webhook(as, "before-roll-key-0123");
    const rolledAt = clock;
    const rolled = await api(as, "POST", `/webhooks/${id}/secret/roll`, { signingKey: "after-roll-key-0123" });
    expect(rolled.body).toEqual({
      code: "success",
      data: {
        signingKey: "after-roll-key-0123",
        standardWebhooksSecret: `whsec_${Buffer.from("after-roll-key-0123").toString("base64")}`,
      },
    });
    const [, afterRoll] = await awaitMessages(id, 2);
    expect(keyIn(afterRoll!.value)).toBe("after-roll-key-0123");
    expect(previousKeyIn(afterRoll!.value)).toBe("before-roll-key-0123");
    expect(afterRoll!.value?.data.previousSigningKeyExpiresAt).toBe(
      new Date(rolledAt.getTime() + 24 * HOUR).toISOString(),
    );
    expect(JSON.stringify(afterRoll)).not.toContain("before-roll-key");

    // Within the grace, any change carries the old key on.
    advance(23 * HOUR);
    await api(as, "PUT", `/webhooks/${id}`, { name: "within-grace" });
    const [, , within] = await awaitMessages(id, 3);
    expect(previousKeyIn(within!.value)).toBe("before-roll-key-0123");

    // After it, the old key is gone: from the next message and from the row.
    advance(HOUR);
    await api(as, "PUT", `/webhooks/${id}`, { name: "after-grace" });
    const [, , , after] = await awaitMessages(id, 4);
    expect(keyIn(after!.value)).toBe("after-roll-key-0123");
    expect(after!.value?.data).not.toHaveProperty("sealedPreviousSigningKey");
    expect(after!.value?.data).not.toHaveProperty("previousSigningKeyExpiresAt");
    const { rows } = await h.pg.db.query(
      "SELECT sealed_previous_signing_key, previous_signing_key_expires_at FROM webhooks.webhooks WHERE id = $1",
      [id],
    );
    expect(rows).toEqual([{ sealed_previous_signing_key: null, previous_signing_key_expires_at: null }]);
  });

  it("rolled again within the grace, keeps only the key just replaced, for 24 h from then", async () => {
    const as = await business();
    const id = await webhook(as, "first-of-three-key-0123");
    await api(as, "POST", `/webhooks/${id}/secret/roll`, { signingKey: "second-of-three-key-0123" });
    advance(2 * HOUR);
    const secondRollAt = clock;
    await api(as, "POST", `/webhooks/${id}/secret/roll`, { signingKey: "third-of-three-key-0123" });
    const [, , last] = await awaitMessages(id, 3);
    expect(keyIn(last!.value)).toBe("third-of-three-key-0123");
    expect(previousKeyIn(last!.value)).toBe("second-of-three-key-0123");
    expect(last!.value?.data.previousSigningKeyExpiresAt).toBe(
      new Date(secondRollAt.getTime() + 24 * HOUR).toISOString(),
    );
  });

  it("refuses a bad key with 400 and keeps both keys as they were", async () => {
    const as = await business();
    const id = await webhook(as, "unchanged-key-0123");
    const refused = await api(as, "POST", `/webhooks/${id}/secret/roll`, { signingKey: "short" });
    expect(refused).toMatchObject({ status: 400, body: { errors: [{ path: "signingKey" }] } });
    expect((await api(as, "GET", `/webhooks/${id}/secret`)).body.data.signingKey).toBe("unchanged-key-0123");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(messagesFor(id)).toHaveLength(1);
    expect(previousKeyIn(messagesFor(id)[0]!.value)).toBeUndefined();
  });
});
