import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FILTER_FORMAT_ERROR } from "@cardhold/query";
import { newId } from "@cardhold/platform";
import { PRODUCTS } from "../src/domain/catalog";
import { call, startHarness, type Caller, type Harness } from "./harness";

const DATA = "bp.11pALsZ5pEtYdYb1z"; // MTN Data: phoneNumber, fixed price 100000, no fee

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

const api = (as: Caller, method: string, path: string, body?: unknown) => call(h, as, method, path, body);
const business = (): Caller => ({ businessId: newId("business"), mode: "test" });
const ids = (body: { data: Array<{ id: string }> }) => body.data.map((p) => p.id);
const products = (as: Caller, query: string) => api(as, "GET", `/tools/bills/products?${query}`);

/** Every product id, newest first (ids are time-ordered). */
const NEWEST_FIRST = PRODUCTS.map((p) => p.id).reverse();

describe("the bill product list speaks the list query language", () => {
  it("takes limit=100 (refused before) and answers every product, newest first", async () => {
    const res = await products(business(), "limit=100");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: "success", metadata: { hasMore: false } });
    expect(ids(res.body)).toEqual(NEWEST_FIRST);
    expect(res.body.data[0]).toEqual(PRODUCTS.at(-1));
  });

  it("pages with limit and after, and counts with countTotal; page is taken as on every list", async () => {
    const as = business();
    const first = await products(as, "limit=3&countTotal");
    expect(first.body.metadata).toEqual({ hasMore: true, totalCount: PRODUCTS.length });
    const next = await products(as, `limit=3&after=${first.body.data[2].id}`);
    expect([...ids(first.body), ...ids(next.body)]).toEqual(NEWEST_FIRST.slice(0, 6));
    expect((await products(as, "limit=3&page=0")).status).toBe(200);
  });

  it("filters, sorts and selects, alone or with the plain filters", async () => {
    const as = business();
    const electricity = await products(as, "filter=category:electricity name~prepaid&sort=name&select=name price");
    expect(electricity.body.data).toEqual([
      { id: "bp.11pALsZ63SKH4cJAC", object: "bill.product", name: "Eko Electric prepaid", price: null },
      { id: "bp.11pALsZ5v2NiSC34t", object: "bill.product", name: "Ikeja Electric prepaid", price: null },
    ]);
    const priced = await products(as, "filter=price|exists|true&limit=100");
    expect(ids(priced.body)).toEqual(NEWEST_FIRST.filter((id) => PRODUCTS.find((p) => p.id === id)!.price !== null));
    const cheapNgn = await products(as, "currency=NGN&filter=price<=150000 fee.amount|gte|0&sort=-price&limit=100");
    const expected = PRODUCTS.filter((p) => p.currency === "NGN" && p.price !== null && p.price <= 150_000)
      .sort((a, b) => b.price! - a.price! || (b.id < a.id ? -1 : 1))
      .map((p) => p.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(cheapNgn.body)).toEqual(expected);
    const named = await products(as, "filter=name~ikeja&category=electricity");
    expect(ids(named.body)).toEqual(["bp.11pALsZ5zHAkcPBjP", "bp.11pALsZ5v2NiSC34t"]);
  });

  it("refuses bad list parameters with the list language's 400s", async () => {
    const as = business();
    expect(await products(as, "limit=0")).toMatchObject({ status: 400, body: { code: "invalid-query" } });
    expect(await products(as, "limit=101")).toMatchObject({ status: 400, body: { code: "invalid-query" } });
    expect(await products(as, "sort=fee")).toMatchObject({ status: 400, body: { code: "invalid-query" } });
    expect(await products(as, "filter=colour:red")).toMatchObject({ status: 400, body: { code: "invalid-query" } });
    expect(await products(as, `after=${newId("billProduct")}`)).toMatchObject({ status: 400 });
    const malformed = await products(as, 'filter=name:"Ikeja');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject(FILTER_FORMAT_ERROR);
    expect(await products(as, "currency=EUR")).toMatchObject({ status: 400, body: { errors: [{ path: "currency" }] } });
  });
});

describe("payment records show fundingSource as the account id", () => {
  it("equal to account, whether the debit source was given or the default account paid", async () => {
    const as = business();
    const main = h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    const wallet = h.ledger.openAccount(as.businessId, "test", "NGN", 500_000, { isDefault: false });
    const given = await api(as, "POST", "/payments/bill", {
      product: DATA,
      inputs: { phoneNumber: "08031234567" },
      debitSource: wallet,
    });
    expect(given.body.data).toMatchObject({ status: "successful", account: wallet, fundingSource: wallet });
    const byDefault = await api(as, "POST", "/payments/bill", {
      product: DATA,
      inputs: { phoneNumber: "08031234567" },
    });
    expect(byDefault.body.data).toMatchObject({ status: "successful", account: main, fundingSource: main });

    const read = await api(as, "GET", `/payments/${given.body.data.id}`);
    expect(read.body.data.fundingSource).toBe(wallet);
    const listed = await api(as, "GET", `/payments?filter=fundingSource.account:${wallet}&select=fundingSource`);
    expect(listed.body.data).toEqual([{ id: given.body.data.id, object: "payment", fundingSource: wallet }]);
  });

  it("refuses a debitSource that is not an account id", async () => {
    const res = await api(business(), "POST", "/payments/bill", {
      product: DATA,
      inputs: { phoneNumber: "08031234567" },
      debitSource: "wallet-1",
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(["debitSource"]);
  });
});
