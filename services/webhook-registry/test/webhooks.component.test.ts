import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually";
import { businessCreated, call, keyIn, keys, startHarness, type Caller, type Harness, type Published } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

/** The Standard Webhooks secret of a signing key, computed here: whsec_ + base64 of its UTF-8 bytes. */
const whsec = (signingKey: string) => `whsec_${Buffer.from(signingKey, "utf8").toString("base64")}`;

const api = (as: Caller, method: string, path: string, body?: unknown) => call(h.http, as, method, path, body);
const messagesFor = (id: string): Published[] => h.published.filter((m) => m.key === id);
/** Waits for exactly `n` webhooks.v1 messages for the webhook (per-key order: later ones cannot overtake). */
const awaitMessages = (id: string, n: number) =>
  eventually(() => {
    expect(messagesFor(id)).toHaveLength(n);
    return messagesFor(id);
  }, 5_000);

/** A fresh business, announced on businesses.v1; resolves once its default webhooks exist. */
async function business(defaultUrl?: string): Promise<{ test: Caller; live: Caller; defaultKey: string }> {
  const message = businessCreated(defaultUrl);
  await h.bus.publish([message]);
  const test: Caller = { businessId: message.value.businessId, mode: "test" };
  const live: Caller = { businessId: message.value.businessId, mode: "live" };
  for (const as of [test, live]) {
    await eventually(
      async () => expect((await api(as, "GET", "/webhooks?filter=isDefault:true")).body.data).toHaveLength(1),
      5_000,
    );
  }
  return { test, live, defaultKey: message.signingKey };
}

const valid = () => ({
  name: "transactions",
  events: ["card.transaction.created"],
  url: "https://hooks.example.com/transactions",
  apiVersion: "2023-03-14",
  description: "card transactions",
  metadata: { team: "ops", tier: 2 },
  timeoutDefault: "decline",
});

async function create(as: Caller, body: Record<string, unknown> = valid()): Promise<string> {
  const res = await api(as, "POST", "/webhooks", body);
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

describe("the businesses.v1 consumer", () => {
  it("creates the default webhook in test and live, announces both, and ignores a redelivery", async () => {
    const message = businessCreated("https://hooks.example.com/all", "default-signing-key-0123456789");
    await h.bus.publish([message]);
    await h.bus.publish([message]);
    await h.bus.publish([{ ...message, id: `${message.id}-again` }]);
    const businessId = message.value.businessId;
    for (const mode of ["test", "live"] as const) {
      const list = await eventually(async () => {
        const res = await api({ businessId, mode }, "GET", "/webhooks?countTotal");
        expect(res.body.metadata.totalCount).toBe(1);
        return res.body.data;
      }, 5_000);
      expect(list[0]).toMatchObject({
        object: "webhook",
        name: "default",
        url: "https://hooks.example.com/all",
        status: "enabled",
        isDefault: true,
        events: [],
      });
      const [announced] = await awaitMessages(list[0].id, 1);
      expect(announced!.value).toMatchObject({
        type: "webhook.changed",
        businessId,
        mode,
        data: { id: list[0].id, isDefault: true, status: "enabled" },
      });
      // The announced key is the test default's; the live default gets a generated one of its own.
      const signingKey = keyIn(announced!.value);
      if (mode === "test") expect(signingKey).toBe("default-signing-key-0123456789");
      else expect(signingKey).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it("opens the announced key sealed for its business only; a plain one from an earlier gateway is still taken", async () => {
    const sealed = businessCreated("https://hooks.example.com/sealed", "sealed-announced-key-0123456789");
    expect(JSON.stringify(sealed.value)).not.toContain("sealed-announced-key-0123456789");
    const plain = businessCreated("https://hooks.example.com/plain", "plain-announced-key-0123456789", true);
    await h.bus.publish([sealed, plain]);
    for (const [message, key] of [
      [sealed, "sealed-announced-key-0123456789"],
      [plain, "plain-announced-key-0123456789"],
    ] as const) {
      const as: Caller = { businessId: message.value.businessId, mode: "test" };
      const id = await eventually(async () => {
        const list = (await api(as, "GET", "/webhooks?filter=isDefault:true")).body.data;
        expect(list).toHaveLength(1);
        return list[0].id as string;
      }, 5_000);
      expect((await api(as, "GET", `/webhooks/${id}/secret`)).body.data.signingKey).toBe(key);
    }
  });

  it("gives the test and the live default their own signing keys; each mode's key comes back only for that mode", async () => {
    const { test, live, defaultKey } = await business();
    const defaultOf = async (as: Caller) =>
      (await api(as, "GET", "/webhooks?filter=isDefault:true")).body.data[0].id as string;
    const testDefault = await defaultOf(test);
    const liveDefault = await defaultOf(live);
    expect(testDefault).not.toBe(liveDefault);

    const testSecret = await api(test, "GET", `/webhooks/${testDefault}/secret`);
    const liveSecret = await api(live, "GET", `/webhooks/${liveDefault}/secret`);
    expect(testSecret).toMatchObject({ status: 200, body: { data: { signingKey: defaultKey } } });
    expect(liveSecret).toMatchObject({
      status: 200,
      body: { data: { signingKey: expect.stringMatching(/^[0-9a-f]{64}$/) } },
    });
    expect(liveSecret.body.data.signingKey).not.toBe(testSecret.body.data.signingKey);
    // The attack: a test key asking for the live default's secret (or a live key for the test one's) finds nothing.
    for (const [as, id] of [
      [test, liveDefault],
      [live, testDefault],
    ] as const) {
      expect(await api(as, "GET", `/webhooks/${id}/secret`)).toMatchObject({
        status: 404,
        body: { code: "not-found" },
      });
      expect(await api(as, "POST", `/webhooks/${id}/secret/roll`, {})).toMatchObject({ status: 404 });
    }
    // The dispatcher gets each webhook's own key: the live key signs only the live default's deliveries.
    const [testAnnounced] = await awaitMessages(testDefault, 1);
    const [liveAnnounced] = await awaitMessages(liveDefault, 1);
    expect(testAnnounced!.value).toMatchObject({ mode: "test" });
    expect(keyIn(testAnnounced!.value)).toBe(defaultKey);
    expect(liveAnnounced!.value).toMatchObject({ mode: "live" });
    expect(keyIn(liveAnnounced!.value)).toBe(liveSecret.body.data.signingKey);

    // Rolling one mode's key leaves the other's alone.
    const rolled = await api(test, "POST", `/webhooks/${testDefault}/secret/roll`, {});
    expect((await api(live, "GET", `/webhooks/${liveDefault}/secret`)).body.data.signingKey).toBe(
      liveSecret.body.data.signingKey,
    );
    expect((await api(test, "GET", `/webhooks/${testDefault}/secret`)).body.data.signingKey).toBe(
      rolled.body.data.signingKey,
    );
  });
});

describe("creating a webhook", () => {
  it("answers 201 with the record (status created, never the signing key) and announces it", async () => {
    const { test } = await business();
    const res = await api(test, "POST", "/webhooks", { ...valid(), signingKey: "my-own-signing-key-0123" });
    expect(res.status).toBe(201);
    expect(res.body.code).toBe("success");
    const record = res.body.data;
    expect(Object.keys(record).sort()).toEqual([
      "apiVersion",
      "createdAt",
      "description",
      "events",
      "id",
      "isDefault",
      "metadata",
      "name",
      "object",
      "signatureHeaders",
      "standIn",
      "status",
      "timeoutDefault",
      "updatedAt",
      "url",
    ]);
    expect(record).toMatchObject({
      ...valid(),
      object: "webhook",
      status: "created",
      isDefault: false,
      signatureHeaders: [],
      standIn: null,
    });
    expect(record.id).toMatch(/^wh\.[1-9A-HJ-NP-Za-km-z]{17}$/);
    expect(JSON.stringify(res.body)).not.toContain("my-own-signing-key");
    const [message] = await awaitMessages(record.id, 1);
    expect(message!.value).toEqual({
      type: "webhook.changed",
      businessId: test.businessId,
      mode: "test",
      occurredAt: record.updatedAt,
      data: {
        id: record.id,
        name: "transactions",
        url: valid().url,
        events: valid().events,
        sealedSigningKey: expect.stringMatching(/^v1:/),
        status: "created",
        isDefault: false,
        timeoutDefault: "decline",
        signatureHeaders: [],
        standIn: null,
      },
    });
    // The message carries the key sealed (it sits in the outbox and on Kafka), never in plain.
    expect(JSON.stringify(message!.value)).not.toContain("my-own-signing-key");
    expect(keyIn(message!.value)).toBe("my-own-signing-key-0123");
    expect((await api(test, "GET", `/webhooks/${record.id}/secret`)).body).toEqual({
      code: "success",
      data: { signingKey: "my-own-signing-key-0123", standardWebhooksSecret: whsec("my-own-signing-key-0123") },
    });
  });

  it("generates a signing key (32 random bytes, hex) when none is given; optional fields come back null", async () => {
    const { test } = await business();
    const res = await api(test, "POST", "/webhooks", {
      name: "minimal",
      events: ["payment.bill.completed"],
      url: "https://hooks.example.com/m",
    });
    expect(res.body.data).toMatchObject({ description: null, apiVersion: null, timeoutDefault: null, metadata: {} });
    const secret = (await api(test, "GET", `/webhooks/${res.body.data.id}/secret`)).body.data.signingKey;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const [message] = await awaitMessages(res.body.data.id, 1);
    expect(keyIn(message!.value)).toBe(secret);
  });

  it("lists every bad field at once and creates nothing", async () => {
    const { test } = await business();
    const res = await api(test, "POST", "/webhooks", {
      name: "",
      events: [],
      url: "ftp://hooks.example.com",
      apiVersion: "2023-02-30",
      description: 7,
      signingKey: "short",
      metadata: { nested: { no: true } },
      timeoutDefault: "maybe",
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, code: "invalid-request" });
    const paths = new Set(res.body.errors.map((e: { path: string }) => e.path));
    expect([...paths].sort()).toEqual([
      "apiVersion",
      "description",
      "events",
      "metadata.nested",
      "name",
      "signingKey",
      "timeoutDefault",
      "url",
    ]);
    const missing = await api(test, "POST", "/webhooks", {});
    expect(missing.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["events", "name", "url"]);
    expect((await api(test, "POST", "/webhooks", [])).status).toBe(400);
    expect((await api(test, "GET", "/webhooks?countTotal")).body.metadata.totalCount).toBe(1);
  });

  it("names an unknown or repeated event kind", async () => {
    const { test } = await business();
    const unknown = await api(test, "POST", "/webhooks", {
      ...valid(),
      events: ["card.transaction.created", "card.nope"],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([
      { path: "events[1]", message: expect.stringContaining('unknown event kind "card.nope"') },
    ]);
    const repeated = await api(test, "POST", "/webhooks", {
      ...valid(),
      events: ["card.transaction.created", "card.transaction.created"],
    });
    expect(repeated.body.errors).toEqual([{ path: "events", message: expect.stringContaining("repeat") }]);
  });

  it("refuses private targets in live mode, allows them in test mode and with ALLOW_PRIVATE_WEBHOOK_TARGETS", async () => {
    const { test, live } = await business();
    const internal = [
      "http://localhost:4000/x",
      "http://10.0.0.8/x",
      "http://169.254.169.254/latest",
      "http://[::1]/x",
      "http://0.0.0.0/x",
      // every special-purpose range, not only private and loopback
      "http://198.18.0.1/",
      "http://224.0.0.1/",
      "http://255.255.255.255/",
      "http://192.0.0.1/",
      "http://240.0.0.1/",
      "http://[::ffff:0:7f00:1]/",
      "http://[64:ff9b:1::7f00:1]/",
      "http://[2001:db8::1]/",
    ];
    for (const url of internal) {
      const refused = await api(live, "POST", "/webhooks", { ...valid(), url });
      expect(refused.status, url).toBe(400);
      expect(refused.body.errors).toEqual([{ path: "url", message: expect.stringContaining("live mode") }]);
      expect(refused.body.message).toContain("must not target a private");
    }
    expect((await api(live, "POST", "/webhooks", valid())).status).toBe(201);
    expect((await api(test, "POST", "/webhooks", { ...valid(), url: "http://localhost:4000/x" })).status).toBe(201);
    expect((await call(h.permissive, live, "POST", "/webhooks", { ...valid(), url: "http://10.0.0.8/x" })).status).toBe(
      201,
    );
    const id = await create(live);
    expect((await api(live, "PUT", `/webhooks/${id}`, { url: "http://192.168.1.1/x" })).status).toBe(400);
  });
});

describe("reading, changing and deleting", () => {
  it("gets, lists through the query language (default included), updates and deletes with a tombstone", async () => {
    const { test } = await business();
    const id = await create(test);
    const other = await create(test, {
      ...valid(),
      name: "bills",
      events: ["payment.bill.completed", "payment.bill.failed"],
    });
    const got = await api(test, "GET", `/webhooks/${id}`);
    expect(got.body.data).toMatchObject({ id, name: "transactions", status: "created" });

    const all = await api(test, "GET", "/webhooks?countTotal");
    expect(all.body.metadata).toEqual({ hasMore: false, totalCount: 3 });
    expect(all.body.data.map((w: { id: string }) => w.id).slice(0, 2)).toEqual([other, id]); // newest first
    expect(
      (await api(test, "GET", "/webhooks?filter=isDefault:false&sort=name")).body.data.map(
        (w: { name: string }) => w.name,
      ),
    ).toEqual(["bills", "transactions"]);
    expect(
      (await api(test, "GET", "/webhooks?filter=events|all|payment.bill.failed")).body.data.map(
        (w: { id: string }) => w.id,
      ),
    ).toEqual([other]);
    expect((await api(test, "GET", "/webhooks?limit=1&select=id name")).body).toMatchObject({
      data: [{ id: other, name: "bills" }],
      metadata: { hasMore: true },
    });
    expect((await api(test, "GET", "/webhooks?filter=signingKey:x")).status).toBe(400);
    expect((await api(test, "GET", "/webhooks?filter=name")).status).toBe(400);

    const before = got.body.data;
    const change = {
      name: "renamed",
      description: "all",
      events: ["card.authorization.closed"],
      apiVersion: "2024-02-29",
      metadata: { team: "risk" },
      timeoutDefault: "approve",
    };
    const updated = await api(test, "PUT", `/webhooks/${id}`, change);
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      ...change,
      url: before.url,
      status: "created",
      createdAt: before.createdAt,
    });
    expect(Date.parse(updated.body.data.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    expect((await api(test, "PUT", `/webhooks/${id}`, { signingKey: "another-key-0123456789" })).body.errors).toEqual([
      { path: "signingKey", message: expect.stringContaining("roll") },
    ]);
    expect((await api(test, "PUT", `/webhooks/${id}`, { events: ["nope"], apiVersion: "2024-13-01" })).status).toBe(
      400,
    );
    expect((await api(test, "PUT", `/webhooks/${id}`, {})).body.data).toEqual(updated.body.data);

    const deleted = await api(test, "DELETE", `/webhooks/${id}`);
    expect(deleted.body).toMatchObject({ code: "success", data: { id, name: "renamed" } });
    expect((await api(test, "GET", `/webhooks/${id}`)).status).toBe(404);
    expect((await api(test, "DELETE", `/webhooks/${id}`)).status).toBe(404);
    const messages = await awaitMessages(id, 3); // created, updated, tombstone (the empty PUT announced nothing)
    expect(messages[1]!.value).toMatchObject({
      data: { name: "renamed", events: ["card.authorization.closed"], timeoutDefault: "approve" },
    });
    expect(messages[2]).toEqual({ key: id, value: null });
  });

  it("answers 404 for an unknown id, another business's webhook and the other mode's", async () => {
    const { test, live } = await business();
    const stranger = (await business()).test;
    const id = await create(test);
    for (const [as, target] of [
      [stranger, id],
      [live, id],
      [test, "wh.unknown"],
    ] as const) {
      for (const [method, path, body] of [
        ["GET", "", undefined],
        ["PUT", "", { name: "x" }],
        ["DELETE", "", undefined],
        ["POST", "/enable", {}],
        ["POST", "/disable", {}],
        ["GET", "/secret", undefined],
        ["POST", "/secret/roll", {}],
      ] as const) {
        const res = await api(as, method, `/webhooks/${target}${path}`, body);
        expect(res.status, `${method} ${path} as ${as.businessId}/${as.mode}`).toBe(404);
        expect(res.body.code).toBe("not-found");
      }
    }
    expect((await api(stranger, "GET", "/webhooks")).body.data.map((w: { id: string }) => w.id)).not.toContain(id);
    expect((await api(test, "GET", `/webhooks/${id}`)).body.data.name).toBe("transactions");
    expect(messagesFor(id)).toHaveLength(1);
  });
});

describe("enable and disable", () => {
  it("moves created → enabled → disabled → enabled; repeating an action changes nothing; created cannot be disabled", async () => {
    const { test } = await business();
    const id = await create(test);
    expect(await api(test, "POST", `/webhooks/${id}/disable`, {})).toMatchObject({
      status: 422,
      body: { code: "invalid-state" },
    });
    expect(await api(test, "POST", `/webhooks/${id}/enable`, { extra: true })).toMatchObject({
      status: 400,
      body: { errors: [{ path: "(body)" }] },
    });
    const enabled = await api(test, "POST", `/webhooks/${id}/enable`, {});
    expect(enabled.body.data.status).toBe("enabled");
    const again = await api(test, "POST", `/webhooks/${id}/enable`);
    expect(again).toMatchObject({
      status: 200,
      body: { data: { status: "enabled", updatedAt: enabled.body.data.updatedAt } },
    });
    expect((await api(test, "POST", `/webhooks/${id}/disable`, {})).body.data.status).toBe("disabled");
    expect((await api(test, "POST", `/webhooks/${id}/disable`, {})).body.data.status).toBe("disabled");
    expect((await api(test, "POST", `/webhooks/${id}/enable`, {})).body.data.status).toBe("enabled");
    const statuses = (await awaitMessages(id, 4)).map((m) => m.value?.data.status);
    expect(statuses).toEqual(["created", "enabled", "disabled", "enabled"]);
  });
});

describe("the default webhook", () => {
  it("cannot be enabled, disabled, deleted or renamed or narrowed; its url, description, metadata and timeout change", async () => {
    const { test } = await business("https://hooks.example.com/fallback");
    const id = (await api(test, "GET", "/webhooks?filter=isDefault:true")).body.data[0].id;
    for (const [method, path] of [
      ["POST", "/enable"],
      ["POST", "/disable"],
      ["DELETE", ""],
    ] as const) {
      const res = await api(test, method, `/webhooks/${id}${path}`, method === "POST" ? {} : undefined);
      expect(res, `${method} ${path}`).toMatchObject({ status: 422, body: { statusCode: 422, code: "invalid-state" } });
    }
    const narrowed = await api(test, "PUT", `/webhooks/${id}`, {
      name: "mine",
      events: ["card.transaction.created"],
      apiVersion: "2024-01-01",
      url: "https://x.example.com",
    });
    expect(narrowed.status).toBe(422);
    expect(narrowed.body.errors.map((e: { path: string }) => e.path)).toEqual(["name", "events", "apiVersion"]);
    const change = {
      url: "https://hooks.example.com/new",
      description: "fallback",
      metadata: { on: true },
      timeoutDefault: "approve",
      name: "default",
    };
    const updated = await api(test, "PUT", `/webhooks/${id}`, change);
    expect(updated.body.data).toMatchObject({ ...change, isDefault: true, status: "enabled", events: [] });
    const rolled = await api(test, "POST", `/webhooks/${id}/secret/roll`, {});
    expect(rolled.status).toBe(200);
    const messages = await awaitMessages(id, 3);
    expect(messages[1]!.value?.data).toMatchObject({
      url: "https://hooks.example.com/new",
      timeoutDefault: "approve",
      isDefault: true,
    });
    expect(keyIn(messages[2]!.value)).toBe(rolled.body.data.signingKey);
  });
});

describe("the signing key", () => {
  it("is read from /secret, rolled to a generated or given key, returned once, and sent to the dispatcher", async () => {
    const { test } = await business();
    const id = await create(test, { ...valid(), signingKey: "first-signing-key-0123" });
    expect((await api(test, "GET", `/webhooks/${id}/secret`)).body.data).toEqual({
      signingKey: "first-signing-key-0123",
      standardWebhooksSecret: whsec("first-signing-key-0123"),
    });
    const generated = await api(test, "POST", `/webhooks/${id}/secret/roll`);
    expect(generated.body).toEqual({
      code: "success",
      data: { signingKey: expect.stringMatching(/^[0-9a-f]{64}$/), standardWebhooksSecret: expect.any(String) },
    });
    expect(generated.body.data.standardWebhooksSecret).toBe(whsec(generated.body.data.signingKey));
    expect((await api(test, "GET", `/webhooks/${id}/secret`)).body.data.signingKey).toBe(
      generated.body.data.signingKey,
    );
    const given = await api(test, "POST", `/webhooks/${id}/secret/roll`, { signingKey: "second-signing-key-0123" });
    expect(given.body.data).toEqual({
      signingKey: "second-signing-key-0123",
      standardWebhooksSecret: whsec("second-signing-key-0123"),
    });
    expect((await api(test, "POST", `/webhooks/${id}/secret/roll`, { signingKey: "short" })).body.errors).toEqual([
      { path: "signingKey", message: expect.any(String) },
    ]);
    expect(JSON.stringify((await api(test, "GET", `/webhooks/${id}`)).body)).not.toContain("second-signing-key");
    const keys = (await awaitMessages(id, 3)).map((m) => keyIn(m.value));
    expect(keys).toEqual(["first-signing-key-0123", generated.body.data.signingKey, "second-signing-key-0123"]);
  });

  it("is kept sealed at rest: the table holds no plain key, and the row's sealed key opens only for its own webhook", async () => {
    const { test } = await business();
    const id = await create(test, { ...valid(), signingKey: "at-rest-signing-key-0123" });
    await api(test, "POST", `/webhooks/${id}/secret/roll`, { signingKey: "at-rest-rolled-key-0123" });
    const { rows } = await h.pg.db.query<{ row: string; sealed: string }>(
      "SELECT row_to_json(w)::text AS row, w.sealed_signing_key AS sealed FROM webhooks.webhooks w WHERE id = $1",
      [id],
    );
    expect(rows[0]!.row).not.toContain("at-rest-");
    expect(rows[0]!.sealed).toMatch(/^v1:/);
    expect(keys.open(id, rows[0]!.sealed)).toBe("at-rest-rolled-key-0123");
    expect(() => keys.open("wh.another", rows[0]!.sealed)).toThrow(/cannot be opened/);
    // The messages (rows of the outbox until published, then on the bus) carry the key sealed too.
    await eventually(() => expect(h.published.filter((m) => m.key === id).length).toBeGreaterThanOrEqual(2));
    expect(JSON.stringify(h.published)).not.toContain("at-rest-");
    const outbox = await h.pg.db.query<{ text: string }>("SELECT o::text AS text FROM webhooks.outbox o");
    for (const { text } of outbox.rows) expect(text).not.toContain("at-rest-");
  });

  it("never reaches a log line", () => {
    const log = h.logLines.join("");
    expect(log).toContain('"path":"/webhooks"');
    for (const key of [
      "my-own-signing-key-0123",
      "first-signing-key-0123",
      "second-signing-key-0123",
      "default-signing-key-0123456789",
    ]) {
      expect(log).not.toContain(key);
      expect(log).not.toContain(whsec(key));
    }
  });
});
