import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@cardhold/platform";
import { eventually } from "../../../test/support/eventually";
import { businessCreated, call, INTERNAL, keyIn, startHarness, type Caller, type Harness, type Reply } from "./harness";
import { lastWriterOf, watchRecordedAnswers, type RecordedAnswer } from "./recorded-answers";

let h: Harness;
let recordedFor: (key: string) => Promise<RecordedAnswer[]>;
beforeAll(async () => {
  h = await startHarness();
  recordedFor = await watchRecordedAnswers(h.pg.db, "webhooks");
});
afterAll(async () => {
  await h?.stop();
});

const api = (as: Caller, method: string, path: string, body?: unknown) => call(h.http, as, method, path, body);
const announced = (id: string) => h.published.filter((m) => m.key === id).map((m) => m.value);

/** A call with an Idempotency-Key; the reply's `idempotent-replayed` header too. */
async function keyed(as: Caller, method: string, path: string, key: string, body?: unknown) {
  const res = await fetch(h.http.url + path, {
    method,
    headers: {
      "x-internal-token": INTERNAL,
      "x-business-id": as.businessId,
      "x-mode": as.mode,
      "content-type": "application/json",
      "idempotency-key": key,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const reply: Reply = { status: res.status, body: await res.json() };
  return { ...reply, replayed: res.headers.get("idempotent-replayed") };
}

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

const acme = {
  name: "authorizations",
  events: ["card.authorization.request"],
  url: "https://hooks.example.com/acme",
  signatureHeaders: ["Acme-Signature"],
};

describe("signatureHeaders on a webhook", () => {
  it("is taken on POST, shown in the record and carried on webhooks.v1; [] when not given", async () => {
    const as = await business();
    const created = await api(as, "POST", "/webhooks", acme);
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ ...acme, object: "webhook", status: "created" });
    const { id } = created.body.data;
    expect((await api(as, "GET", `/webhooks/${id}`)).body.data.signatureHeaders).toEqual(["Acme-Signature"]);
    await eventually(() => expect(announced(id)).toHaveLength(1), 5_000);
    expect(announced(id)[0]!.data).toMatchObject({ id, signatureHeaders: ["Acme-Signature"] });

    const plain = await api(as, "POST", "/webhooks", { ...acme, signatureHeaders: undefined });
    expect(plain.body.data.signatureHeaders).toEqual([]);
    const listed = await api(as, "GET", "/webhooks?filter=signatureHeaders:Acme-Signature");
    expect(listed.body.data.map((w: { id: string }) => w.id)).toEqual([id]);
  });

  it("keeps names as written and refuses bad, clashing, repeated or too many names with a 400 naming the field", async () => {
    const as = await business();
    const cases: Array<[unknown, string, string]> = [
      [["Acme Signature"], "signatureHeaders[0]", "HTTP header name"],
      [["Acme-Signature:"], "signatureHeaders[0]", "HTTP header name"],
      [["ok", "Service-Signature"], "signatureHeaders[1]", "platform or HTTP"],
      [["content-type"], "signatureHeaders[0]", "platform or HTTP"],
      [["Webhook-Signature"], "signatureHeaders[0]", "platform or HTTP"],
      [["Idempotency-Key"], "signatureHeaders[0]", "platform or HTTP"],
      [["TRACEPARENT"], "signatureHeaders[0]", "platform or HTTP"],
      [["Acme-Signature", "acme-signature"], "signatureHeaders", "repeat"],
      [["A", "B", "C", "D", "E", "F"], "signatureHeaders", "at most 5"],
      ["Acme-Signature", "signatureHeaders", "array"],
    ];
    for (const [signatureHeaders, path, message] of cases) {
      const res = await api(as, "POST", "/webhooks", { ...acme, signatureHeaders });
      expect(res.status, JSON.stringify(signatureHeaders)).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, code: "invalid-request" });
      expect(res.body.message).toContain("signatureHeaders");
      expect(res.body.errors).toContainEqual({ path, message: expect.stringContaining(message) });
    }
    expect((await api(as, "GET", "/webhooks?countTotal")).body.metadata.totalCount).toBe(1); // the default only
  });

  it("is changed and removed by PUT (the default webhook's too), each change announced", async () => {
    const as = await business();
    const id = (await api(as, "POST", "/webhooks", acme)).body.data.id as string;
    const changed = await api(as, "PUT", `/webhooks/${id}`, { signatureHeaders: ["X-Acme-Signature", "acme-sig"] });
    expect(changed).toMatchObject({
      status: 200,
      body: { data: { signatureHeaders: ["X-Acme-Signature", "acme-sig"] } },
    });
    expect((await api(as, "PUT", `/webhooks/${id}`, { signatureHeaders: ["Host"] })).status).toBe(400);
    expect((await api(as, "PUT", `/webhooks/${id}`, { name: "kept" })).body.data.signatureHeaders).toEqual([
      "X-Acme-Signature",
      "acme-sig",
    ]);
    const removed = await api(as, "PUT", `/webhooks/${id}`, { signatureHeaders: [] });
    expect(removed.body.data.signatureHeaders).toEqual([]);
    await eventually(() => expect(announced(id)).toHaveLength(4), 5_000);
    expect(announced(id).map((m) => m!.data.signatureHeaders)).toEqual([
      ["Acme-Signature"],
      ["X-Acme-Signature", "acme-sig"],
      ["X-Acme-Signature", "acme-sig"],
      [],
    ]);

    const defaultId = (await api(as, "GET", "/webhooks?filter=isDefault:true")).body.data[0].id as string;
    const onDefault = await api(as, "PUT", `/webhooks/${defaultId}`, { signatureHeaders: ["Acme-Signature"] });
    expect(onDefault).toMatchObject({
      status: 200,
      body: { data: { isDefault: true, signatureHeaders: ["Acme-Signature"] } },
    });
  });
});

describe("Idempotency-Key on the registry's writes", () => {
  it("POST /webhooks records its 201 in the transaction that creates the webhook; a repeat replays it", async () => {
    const as = await business();
    const key = newId("request");
    const first = await keyed(as, "POST", "/webhooks", key, acme);
    expect(first).toMatchObject({ status: 201, replayed: null });
    const [recorded] = await recordedFor(key);
    expect(recorded).toMatchObject({ status: 201 });
    expect(recorded!.txid).toBe(await lastWriterOf(h.pg.db, "webhooks.webhooks", first.body.data.id));
    const again = await keyed(as, "POST", "/webhooks", key, acme);
    expect(again).toEqual({ ...first, replayed: "true" });
    expect((await api(as, "GET", "/webhooks?countTotal")).body.metadata.totalCount).toBe(2);
  });

  it("PUT, enable and disable record their 200 with their change (a no-op too) and replay it", async () => {
    const as = await business();
    const id = (await api(as, "POST", "/webhooks", acme)).body.data.id as string;
    const writes: Array<[string, string, unknown]> = [
      ["PUT", `/webhooks/${id}`, { signatureHeaders: ["X-Acme-Signature"] }],
      ["PUT", `/webhooks/${id}`, {}],
      ["POST", `/webhooks/${id}/enable`, {}],
      ["POST", `/webhooks/${id}/enable`, {}],
      ["POST", `/webhooks/${id}/disable`, {}],
    ];
    for (const [method, path, body] of writes) {
      const key = newId("request");
      const first = await keyed(as, method, path, key, body);
      expect(first.status, `${method} ${path}`).toBe(200);
      expect(await recordedFor(key), `${method} ${path}`).toEqual([expect.objectContaining({ status: 200 })]);
      expect(await keyed(as, method, path, key, body)).toEqual({ ...first, replayed: "true" });
    }
    const refused = newId("request");
    expect((await keyed(as, "PUT", `/webhooks/${id}`, refused, { signatureHeaders: ["Host"] })).status).toBe(400);
    expect(await recordedFor(refused)).toEqual([]); // a refusal has no effect: the middleware keeps it
  });

  it("a rolled key is never recorded: the key table holds no plain secret and a repeat rolls again", async () => {
    const as = await business();
    const id = (await api(as, "POST", "/webhooks", acme)).body.data.id as string;
    const key = newId("request");
    const body = { signingKey: "a-rolled-signing-key-0123" };
    const first = await keyed(as, "POST", `/webhooks/${id}/secret/roll`, key, body);
    expect(first).toMatchObject({ status: 200, body: { data: body }, replayed: null });
    expect(await recordedFor(key)).toEqual([]);
    const { rows } = await h.pg.db.query("SELECT answer_body FROM webhooks.idempotency_keys WHERE key = $1", [key]);
    expect(JSON.stringify(rows)).not.toContain(body.signingKey);
    expect((await keyed(as, "POST", `/webhooks/${id}/secret/roll`, key, body)).replayed).toBeNull();
    await eventually(() => expect(announced(id)).toHaveLength(2), 5_000);
    expect(keyIn(announced(id)[1])).toBe(body.signingKey);
  });
});
