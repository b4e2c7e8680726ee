import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayCaller, newBusiness, OPERATOR, startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

const call = gatewayCaller(() => h);
const operator = { "x-operator-token": OPERATOR };

const march = {
  amount: 2_500_000,
  currency: "NGN",
  description: "Card maintenance, March 2025",
  period: { start: "2025-03-01", end: "2025-03-31" },
};

async function charge(businessId: string, body: Record<string, unknown>) {
  const res = await call("POST", `/admin/businesses/${businessId}/billings`, { headers: operator, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; status: string };
}

/** A business with a test key, and billings in test mode (the key's) and one in live mode. */
async function billedBusiness(name: string) {
  const { business, testKey } = await newBusiness(h, name);
  const first = await charge(business.id, { ...march, mode: "test" });
  const second = await charge(business.id, {
    amount: 150_000,
    currency: "USD",
    description: "Card issuing",
    mode: "test",
  });
  const live = await charge(business.id, { ...march });
  return { businessId: business.id as string, key: testKey, first, second, live };
}

describe("the operator's charges, read by the business", () => {
  it("creates a billing through the admin API, pending, with a bil. id", async () => {
    const { business } = await newBusiness(h, "Created Ltd");
    const res = await call("POST", `/admin/businesses/${business.id}/billings`, { headers: operator, body: march });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      code: "success",
      data: {
        id: expect.stringMatching(/^bil\.[1-9A-Za-z]{17}$/),
        object: "billing",
        ...march,
        status: "pending",
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    });
  });

  it("lists the key's mode's billings newest first, with the query language", async () => {
    const { key, first, second } = await billedBusiness("List Ltd");
    const all = await call("GET", "/billings?countTotal", { key });
    expect(all.status).toBe(200);
    expect(all.body.metadata).toEqual({ hasMore: false, totalCount: 2 });
    expect(all.body.data.map((b: { id: string }) => b.id)).toEqual([second.id, first.id]);

    const usd = await call("GET", "/billings?filter=currency:USD", { key });
    expect(usd.body.data).toEqual([expect.objectContaining({ id: second.id, amount: 150_000, period: null })]);
    const large = await call("GET", `/billings?filter=${encodeURIComponent("amount>1000000")}`, { key });
    expect(large.body.data.map((b: { id: string }) => b.id)).toEqual([first.id]);
    const paged = await call("GET", "/billings?limit=1&select=amount", { key });
    expect(paged.body).toEqual({
      code: "success",
      data: [{ id: second.id, object: "billing", amount: 150_000 }],
      metadata: { hasMore: true },
    });
  });

  it("refuses a bad list query with a 400", async () => {
    const { key } = await billedBusiness("Bad Query Ltd");
    const res = await call("GET", "/billings?filter=colour:red", { key });
    expect(res.status).toBe(400);
    expect((await call("GET", "/billings?limit=500", { key })).status).toBe(400);
  });

  it("retrieves one; another business's id, or the other mode's, is a 404", async () => {
    const { key, first, live } = await billedBusiness("Get Ltd");
    const other = await billedBusiness("Other Billed Ltd");
    const one = await call("GET", `/billings/${first.id}`, { key });
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id: first.id, object: "billing", ...march, status: "pending" });
    const foreign = await call("GET", `/billings/${other.first.id}`, { key });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({
      statusCode: 404,
      code: "not-found",
      message: `Billing ${other.first.id} was not found`,
    });
    expect((await call("GET", `/billings/${live.id}`, { key })).status).toBe(404);
  });

  it("marks a pending billing paid (asking again changes nothing); a paid one cannot be voided", async () => {
    const { businessId, key, first } = await billedBusiness("Paid Ltd");
    const path = `/admin/businesses/${businessId}/billings/${first.id}`;
    const paid = await call("PATCH", path, { headers: operator, body: { status: "paid" } });
    expect(paid.status).toBe(200);
    expect(paid.body.data).toMatchObject({ id: first.id, status: "paid" });
    expect((await call("PATCH", path, { headers: operator, body: { status: "paid" } })).body.data).toEqual(
      paid.body.data,
    );
    const voided = await call("PATCH", path, { headers: operator, body: { status: "void" } });
    expect(voided.status).toBe(422);
    expect(voided.body).toMatchObject({ statusCode: 422, code: "invalid-state" });
    expect((await call("GET", `/billings/${first.id}`, { key })).body.data.status).toBe("paid");
    const paidList = await call("GET", "/billings?filter=status:paid", { key });
    expect(paidList.body.data.map((b: { id: string }) => b.id)).toEqual([first.id]);
  });
});

describe("the admin API's billing validation", () => {
  it.each([
    [{ ...march, amount: 0 }, "amount"],
    [{ ...march, amount: 12.5 }, "amount"],
    [{ ...march, currency: "EUR" }, "currency"],
    [{ ...march, description: "" }, "description"],
    [{ currency: "NGN", description: "x" }, "amount"],
    [{ ...march, period: { start: "2025-04-01", end: "2025-03-01" } }, "period.end"],
    [{ ...march, mode: "staging" }, "mode"],
  ])("refuses %j with a 400 naming %s", async (body, field) => {
    const { business } = await newBusiness(h, "Validation Ltd");
    const res = await call("POST", `/admin/businesses/${business.id}/billings`, { headers: operator, body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, code: "invalid-request" });
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(field);
  });

  it("refuses an unknown field, an unknown business, a bad status and a missing operator token", async () => {
    const { business } = await newBusiness(h, "Refusals Ltd");
    const path = `/admin/businesses/${business.id}/billings`;
    expect((await call("POST", path, { headers: operator, body: { ...march, amout: 1 } })).status).toBe(400);
    expect(
      (await call("POST", "/admin/businesses/bus.unknown/billings", { headers: operator, body: march })).status,
    ).toBe(404);
    expect((await call("POST", path, { body: march })).status).toBe(401);
    const created = await charge(business.id, march);
    const patch = (body: unknown) => call("PATCH", `${path}/${created.id}`, { headers: operator, body });
    expect((await patch({ status: "pending" })).status).toBe(400);
    expect((await patch({})).status).toBe(400);
    expect((await call("PATCH", `${path}/bil.unknown`, { headers: operator, body: { status: "paid" } })).status).toBe(
      404,
    );
  });
});
