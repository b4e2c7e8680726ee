import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually";
import { businessCreated, call, startHarness, type Caller, type Harness } from "./harness";

/** A webhook's stand-in rules (standIn, the shape of a card program's authorization.standIn). */

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

const api = (as: Caller, method: string, path: string, body?: unknown) => call(h.http, as, method, path, body);
const announced = (id: string) => h.published.filter((m) => m.key === id).map((m) => m.value);

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

const decisions = {
  name: "decisions",
  events: ["card.authorization.request"],
  url: "https://hooks.example.com/decisions",
};
/** As written: one MCC list as a string, `otherwise` left out. */
const written = { rules: [{ name: "fuel", approveUpTo: 5_000, perCardDaily: 20_000, mccs: "5541-5542" }] };
/** As kept, shown and announced: MCC lists as an array, `otherwise` filled in. */
const kept = {
  rules: [{ name: "fuel", approveUpTo: 5_000, perCardDaily: 20_000, mccs: ["5541-5542"] }],
  otherwise: "decline",
};

describe("standIn on a webhook", () => {
  it("is taken on POST, shown on GET and in lists, and carried on webhooks.v1; null when not given", async () => {
    const as = await business();
    const created = await api(as, "POST", "/webhooks", { ...decisions, standIn: written });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.standIn).toEqual(kept);
    const { id } = created.body.data;
    expect((await api(as, "GET", `/webhooks/${id}`)).body.data.standIn).toEqual(kept);
    const listed = (await api(as, "GET", "/webhooks")).body.data as Array<{ id: string; standIn: unknown }>;
    expect(listed.find((w) => w.id === id)!.standIn).toEqual(kept);
    await eventually(() => expect(announced(id)).toHaveLength(1), 5_000);
    expect(announced(id)[0]!.data).toMatchObject({ id, standIn: kept });

    const plain = await api(as, "POST", "/webhooks", decisions);
    expect(plain.body.data.standIn).toBeNull();
    await eventually(() => expect(announced(plain.body.data.id)).toHaveLength(1), 5_000);
    expect(announced(plain.body.data.id)[0]!.data.standIn).toBeNull();
  });

  it("is set, kept, replaced and removed (null) by PUT, the default webhook's too, each change announced", async () => {
    const as = await business();
    const id = (await api(as, "POST", "/webhooks", decisions)).body.data.id as string;
    expect((await api(as, "PUT", `/webhooks/${id}`, { standIn: written })).body.data.standIn).toEqual(kept);
    expect((await api(as, "PUT", `/webhooks/${id}`, { name: "renamed" })).body.data.standIn).toEqual(kept);
    const approveAll = { rules: [], otherwise: "approve" };
    expect((await api(as, "PUT", `/webhooks/${id}`, { standIn: approveAll })).body.data.standIn).toEqual(approveAll);
    const removed = await api(as, "PUT", `/webhooks/${id}`, { standIn: null });
    expect(removed).toMatchObject({ status: 200, body: { data: { standIn: null } } });
    await eventually(() => expect(announced(id)).toHaveLength(5), 5_000);
    expect(announced(id).map((m) => m!.data.standIn)).toEqual([null, kept, kept, approveAll, null]);

    const defaultId = (await api(as, "GET", "/webhooks?filter=isDefault:true")).body.data[0].id as string;
    const onDefault = await api(as, "PUT", `/webhooks/${defaultId}`, { standIn: written });
    expect(onDefault).toMatchObject({ status: 200, body: { data: { isDefault: true, standIn: kept } } });
  });

  const rule = { approveUpTo: 1_000 };
  it.each<[string, unknown, string, string]>([
    ["not an object", "approve", "standIn", "object"],
    ["no rules", { otherwise: "approve" }, "standIn.rules", "expected array"],
    ["a rule without approveUpTo", { rules: [{ perCardDaily: 1 }] }, "standIn.rules[0].approveUpTo", "expected number"],
    ["a negative limit", { rules: [{ approveUpTo: -1 }] }, "standIn.rules[0].approveUpTo", "negative"],
    ["a fractional limit", { rules: [{ approveUpTo: 1.5 }] }, "standIn.rules[0].approveUpTo", "whole"],
    ["an unknown rule field", { rules: [{ ...rule, perCardDialy: 1 }] }, "standIn.rules[0]", "perCardDialy"],
    ["a bad MCC list", { rules: [{ ...rule, mccs: ["55"] }] }, "standIn.rules[0].mccs[0]", "4-digit"],
    ["an unknown channel", { rules: [{ ...rule, channels: ["phone"] }] }, "standIn.rules[0].channels[0]", "in-app"],
    [
      "two rules of one name",
      {
        rules: [
          { ...rule, name: "a" },
          { ...rule, name: "a" },
        ],
      },
      "standIn.rules",
      "unique",
    ],
    ["a rule named otherwise", { rules: [{ ...rule, name: "otherwise" }] }, "standIn.rules", "otherwise"],
    ["an unknown otherwise", { rules: [], otherwise: "maybe" }, "standIn.otherwise", "decline"],
  ])(
    "refuses %s with a 400 naming the field, on POST and PUT, and changes nothing",
    async (_name, standIn, path, says) => {
      const as = await business();
      const created = await api(as, "POST", "/webhooks", { ...decisions, standIn });
      expect(created.status).toBe(400);
      expect(created.body).toMatchObject({ statusCode: 400, code: "invalid-request" });
      expect(created.body.message).toContain("standIn");
      expect(created.body.errors).toContainEqual({ path, message: expect.stringContaining(says) });
      expect((await api(as, "GET", "/webhooks?countTotal")).body.metadata.totalCount).toBe(1); // the default only

      const id = (await api(as, "POST", "/webhooks", { ...decisions, standIn: written })).body.data.id as string;
      const updated = await api(as, "PUT", `/webhooks/${id}`, { standIn });
      expect(updated.status).toBe(400);
      expect(updated.body.errors).toContainEqual({ path, message: expect.stringContaining(says) });
      expect((await api(as, "GET", `/webhooks/${id}`)).body.data.standIn).toEqual(kept);
    },
  );
});
