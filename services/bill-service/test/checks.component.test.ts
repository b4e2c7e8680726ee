import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@cardhold/platform";
import { announceCustomer, call, startHarness, type Caller, type Harness } from "./harness";

const ELECTRICITY = "bp.11pALsZ5v2NiSC34t";
const POSTPAID = "bp.11pALsZ5zHAkcPBjP";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

const api = (as: Caller, method: string, path: string, body?: unknown) => call(h, as, method, path, body);
const business = (): Caller => ({ businessId: newId("business"), mode: "test" });
const paths = (body: { errors?: Array<{ path: string }> }) => (body.errors ?? []).map((e) => e.path);

describe("the catalog", () => {
  it("lists categories and products, filters products, and gets one by id", async () => {
    const as = business();
    const categories = await api(as, "GET", "/tools/bills/categories?countTotal");
    expect(categories.body.data.map((c: { id: string }) => c.id)).toEqual([
      "airtime",
      "mobile-data",
      "electricity",
      "cable-tv",
    ]);
    expect(categories.body.metadata).toEqual({ hasMore: false, totalCount: 4 });

    const electricity = await api(as, "GET", "/tools/bills/products?category=electricity");
    expect(electricity.body).toMatchObject({ code: "success", metadata: { hasMore: false } });
    // Newest first, as every list (product ids are in catalog order).
    expect(electricity.body.data.map((p: { name: string }) => p.name)).toEqual([
      "Eko Electric prepaid",
      "Ikeja Electric postpaid",
      "Ikeja Electric prepaid",
    ]);
    const usd = await api(as, "GET", "/tools/bills/products?currency=USD");
    expect(usd.body.data).toHaveLength(1);
    expect((await api(as, "GET", "/tools/bills/products?biller=multichoice-dstv")).body.data).toHaveLength(1);

    const one = await api(as, "GET", `/tools/bills/products/${ELECTRICITY}`);
    expect(one.body.data).toMatchObject({
      id: ELECTRICITY,
      object: "bill.product",
      category: "electricity",
      biller: "ikeja-electric",
      currency: "NGN",
      price: null,
      fee: { type: "flat", amount: 10_000 },
      accountInput: "meterNumber",
      inputs: [
        { name: "meterNumber", type: "string", required: true, pattern: "^\\d{11,13}$" },
        { name: "amount", type: "amount", required: true, minAmount: 100_000, maxAmount: 50_000_000 },
      ],
      output: [{ name: "token" }, { name: "units" }],
    });
  });

  it("answers 404 for an unknown product and 400 for an unknown category or a filter on an unknown field", async () => {
    const as = business();
    expect((await api(as, "GET", `/tools/bills/products/${newId("billProduct")}`)).body).toMatchObject({
      statusCode: 404,
      code: "not-found",
    });
    const bad = await api(as, "GET", "/tools/bills/products?category=gas&filter=category:airtime");
    expect(bad.status).toBe(400);
    expect(paths(bad.body)).toEqual(["category"]);
    const unknownField = await api(as, "GET", "/tools/bills/products?filter=colour:red");
    expect(unknownField).toMatchObject({ status: 400, body: { code: "invalid-query" } });
  });
});

describe("validating a bill", () => {
  it("prices the bill, names the account holder and the customer, and moves no money", async () => {
    const as = business();
    const customer = await announceCustomer(h, as, "Musa Abdullahi");
    const res = await api(as, "POST", "/payments/bill/validate", {
      product: ELECTRICITY,
      inputs: { meterNumber: "45000000001", amount: 150_000 },
      customer,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      code: "success",
      data: {
        product: ELECTRICITY,
        productName: "Ikeja Electric prepaid",
        category: "electricity",
        biller: "ikeja-electric",
        currency: "NGN",
        amount: 150_000,
        fee: 10_000,
        total: 160_000,
        inputs: { meterNumber: "45000000001", amount: "150000" },
        accountNumber: "45000000001",
        accountName: expect.stringMatching(/^\w+ \w+$/),
        customer,
        customerName: "Musa Abdullahi",
        debitSource: null,
      },
    });
    expect(h.ledger.received).toHaveLength(0);
    expect((await api(as, "GET", "/payments?countTotal")).body.metadata.totalCount).toBe(0);
  });

  it("waits briefly for a customer the projection has not seen yet", async () => {
    const as = business();
    const late = newId("customer");
    const pending = api(as, "POST", "/payments/bill/validate", {
      product: ELECTRICITY,
      inputs: { meterNumber: "45000000001", amount: 150_000 },
      customer: late,
    });
    await new Promise((r) => setTimeout(r, 200));
    const { mode, businessId } = as;
    await h.bus.publish([
      {
        topic: "customers.v1",
        key: late,
        value: {
          type: "customer.created",
          businessId,
          mode,
          occurredAt: new Date().toISOString(),
          data: {
            id: late,
            object: "customer",
            name: "Late Comer",
            reference: "late",
            type: "individual",
            status: "active",
            claims: {},
            verifications: [{ type: "tier-1", status: "verified" }],
            metadata: {},
            createdAt: new Date().toISOString(),
            updatedAt: new Date().toISOString(),
          },
        },
      },
    ]);
    expect((await pending).body.data).toMatchObject({ customer: late, customerName: "Late Comer" });
  });
});

describe("refusing a bad bill (validate and pay alike), with nothing recorded and no money moved", () => {
  const cases: Array<[string, (as: Caller) => Promise<unknown> | unknown, number, string, string[]]> = [
    ["a body that is not an object", () => [], 400, "invalid-request", ["(body)"]],
    ["missing product and inputs", () => ({}), 400, "invalid-request", ["product", "inputs"]],
    [
      "malformed ids",
      () => ({ product: "electricity", inputs: {}, customer: "c1", debitSource: "wallet" }),
      400,
      "invalid-request",
      ["product", "customer", "debitSource"],
    ],
    ["an unknown product", () => ({ product: newId("billProduct"), inputs: {} }), 404, "not-found", []],
    [
      "bad inputs, each named",
      () => ({ product: ELECTRICITY, inputs: { meterNumber: "12", amount: "1.5", colour: "red" } }),
      400,
      "invalid-request",
      ["inputs.meterNumber", "inputs.amount", "inputs.colour"],
    ],
    [
      "an amount out of bounds",
      () => ({ product: POSTPAID, inputs: { accountNumber: "0100000001", amount: 99 } }),
      400,
      "invalid-request",
      ["inputs.amount"],
    ],
    [
      "a meter the biller does not know",
      () => ({ product: ELECTRICITY, inputs: { meterNumber: "45000000000", amount: 150_000 } }),
      400,
      "invalid-request",
      ["inputs.meterNumber"],
    ],
    [
      "an unknown customer",
      () => ({
        product: ELECTRICITY,
        inputs: { meterNumber: "45000000001", amount: 150_000 },
        customer: newId("customer"),
      }),
      404,
      "not-found",
      [],
    ],
    [
      "another business's customer",
      async () => ({
        product: ELECTRICITY,
        inputs: { meterNumber: "45000000001", amount: 150_000 },
        customer: await announceCustomer(h, business()),
      }),
      404,
      "not-found",
      [],
    ],
  ];

  it.each(cases)("%s", async (_name, body, status, code, errorPaths) => {
    const as = business();
    h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    const request = await body(as);
    for (const path of ["/payments/bill/validate", "/payments/bill"]) {
      const res = await api(as, "POST", path, request);
      expect(res.status, path).toBe(status);
      expect(res.body).toMatchObject({ statusCode: status, code, message: expect.any(String) });
      expect(paths(res.body), path).toEqual(errorPaths);
    }
    expect((await api(as, "GET", "/payments?countTotal")).body.metadata.totalCount).toBe(0);
    expect(h.ledger.received.filter((c) => c.businessId === as.businessId)).toHaveLength(0);
  });

  it("answers an unknown customer only after waiting for the projection", async () => {
    const as = business();
    const started = Date.now();
    const res = await api(as, "POST", "/payments/bill/validate", {
      product: ELECTRICITY,
      inputs: { meterNumber: "45000000001", amount: 150_000 },
      customer: newId("customer"),
    });
    expect(res.status).toBe(404);
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
  });
});

describe("odd bodies", () => {
  it("never answer 5xx (property)", async () => {
    const as = business();
    const value = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string(), { maxLength: 2 }),
      fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
    );
    const body = fc.oneof(
      value,
      fc.record(
        {
          product: fc.oneof(fc.constant(ELECTRICITY), fc.constant(POSTPAID), value),
          inputs: fc.oneof(
            fc.dictionary(fc.constantFrom("meterNumber", "accountNumber", "amount", "x"), value, { maxKeys: 3 }),
            value,
          ),
          customer: value,
          reference: value,
          debitSource: value,
          metadata: value,
        },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom("/payments/bill/validate", "/payments/bill"), async (b, path) => {
        const res = await api(as, "POST", path, b);
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 60 },
    );
  });
});
