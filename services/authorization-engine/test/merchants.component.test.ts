/**
 * The merchant tools (compatibility notes part 2, "Tools": Merchants, Category names): the sandbox's merchant
 * directory through the list query language, one merchant by its `mch.` id, and the category names card controls take.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mccInList } from "../src/domain/pre-checks";
import { call, issueCard, newBusiness, startEngine, type EngineHarness } from "./harness";

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngine();
});
afterAll(async () => {
  await h?.stop();
});

const DIRECTORY_SIZE = 14;
const SKYWAY_AIR = "mch.11nc8z4WBDwHYCAgb";
const NAIJA_STAKES = "mch.11nc8z56fUiHDdbvo";
const DOCUMENTED_CATEGORIES = ["airlines", "flight-ticket", "betting", "hospitality"];

const merchantShape = {
  id: expect.stringMatching(/^mch\.[1-9A-HJ-NP-Za-km-z]{17}$/),
  object: "merchant",
  name: expect.any(String),
  mcc: expect.stringMatching(/^\d{4}$/),
  category: expect.any(String),
  city: expect.any(String),
  country: expect.stringMatching(/^[A-Z]{2}$/),
  createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
  updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
};

describe("GET /tools/merchants", () => {
  it("lists the directory in the list envelope, newest first, every record in the merchant shape", async () => {
    const reply = await call(h, newBusiness(), "GET", "/tools/merchants?limit=100&countTotal=true");
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ code: "success", metadata: { hasMore: false, totalCount: DIRECTORY_SIZE } });
    const merchants = reply.body.data as Array<{ id: string; category: string }>;
    expect(merchants).toHaveLength(DIRECTORY_SIZE);
    for (const merchant of merchants) expect(merchant).toEqual(merchantShape);
    expect(merchants.map((m) => m.id)).toEqual(
      merchants
        .map((m) => m.id)
        .sort()
        .reverse(),
    );
    for (const category of DOCUMENTED_CATEGORIES) expect(merchants.some((m) => m.category === category)).toBe(true);
  });

  it("is the same directory for every business, in test and live mode", async () => {
    const ids = async (mode: "test" | "live") =>
      ((await call(h, newBusiness(mode), "GET", "/tools/merchants?limit=100")).body.data as Array<{ id: string }>).map(
        (m) => m.id,
      );
    const test = await ids("test");
    expect(await ids("test")).toEqual(test);
    expect(await ids("live")).toEqual(test);
  });

  it("filters, sorts, selects and pages with the query language", async () => {
    const as = newBusiness();
    const airlines = await call(h, as, "GET", "/tools/merchants?filter=category:airlines");
    expect(airlines.body.data).toEqual([
      {
        ...merchantShape,
        id: SKYWAY_AIR,
        name: "Skyway Air",
        mcc: "4511",
        category: "airlines",
        city: "Lagos",
        country: "NG",
      },
    ]);
    const lagos = await call(h, as, "GET", "/tools/merchants?filter=city:Lagos%20mcc|gte|7000&sort=name&select=name");
    expect(lagos.body.data).toEqual([
      { id: expect.any(String), object: "merchant", name: "Lagoon View Hotel" },
      { id: NAIJA_STAKES, object: "merchant", name: "Naija Stakes" },
      { id: expect.any(String), object: "merchant", name: "Starlight Cinemas" },
    ]);
    const first = await call(h, as, "GET", "/tools/merchants?sort=name&limit=5");
    expect(first.body.metadata).toEqual({ hasMore: true });
    const next = await call(h, as, "GET", `/tools/merchants?sort=name&limit=5&after=${first.body.data[4].id}`);
    const names = [...first.body.data, ...next.body.data].map((m: { name: string }) => m.name);
    expect(names).toEqual([...names].sort());
    expect(new Set(names).size).toBe(10);
  });

  it("answers a bad query with a 400 in the platform's error shape", async () => {
    const as = newBusiness();
    expect(await call(h, as, "GET", "/tools/merchants?filter=colour:red")).toMatchObject({
      status: 400,
      body: { statusCode: 400, code: "invalid-query", message: expect.stringContaining("colour") },
    });
    expect(await call(h, as, "GET", "/tools/merchants?limit=0")).toMatchObject({
      status: 400,
      body: { code: "invalid-query" },
    });
    expect(await call(h, as, "GET", "/tools/merchants?filter=name")).toMatchObject({
      status: 400,
      body: { statusCode: 400, message: "The format of the filter parameter is incorrect" },
    });
    expect(await call(h, as, "GET", "/tools/merchants?after=mch.11111111111111111")).toMatchObject({
      status: 400,
      body: { code: "invalid-query" },
    });
  });
});

describe("GET /tools/merchants/:id", () => {
  it("answers one merchant by its mch. id", async () => {
    const reply = await call(h, newBusiness(), "GET", `/tools/merchants/${NAIJA_STAKES}`);
    expect(reply).toMatchObject({ status: 200, body: { code: "success" } });
    expect(reply.body.data).toEqual({
      ...merchantShape,
      id: NAIJA_STAKES,
      name: "Naija Stakes",
      mcc: "7995",
      category: "betting",
      city: "Lagos",
      country: "NG",
    });
  });

  it("answers 404 for an unknown id and for text that is no id", async () => {
    const as = newBusiness();
    for (const id of ["mch.11111111111111111", "nothing"])
      expect(await call(h, as, "GET", `/tools/merchants/${id}`)).toMatchObject({
        status: 404,
        body: { statusCode: 404, code: "not-found", message: `Merchant ${id} was not found` },
      });
  });
});

describe("GET /tools/merchants/categories", () => {
  const categoriesOf = async () => {
    const reply = await call(h, newBusiness(), "GET", "/tools/merchants/categories");
    expect(reply).toMatchObject({ status: 200, body: { code: "success", metadata: { hasMore: false } } });
    return reply.body.data as Array<{ object: string; name: string; mccRanges: string[] }>;
  };

  it("lists every category name with its MCC ranges, the four the documents use among them", async () => {
    const categories = await categoriesOf();
    for (const category of categories)
      expect(category).toEqual({
        object: "merchant.category",
        name: expect.stringMatching(/^[a-z-]+$/),
        mccRanges: expect.arrayContaining([expect.stringMatching(/^\d{4}(-\d{4})?$/)]),
      });
    const names = categories.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(DOCUMENTED_CATEGORIES));
    expect(categories.find((c) => c.name === "airlines")).toEqual({
      object: "merchant.category",
      name: "airlines",
      mccRanges: ["3000-3350", "4511"],
    });
    const counted = await call(h, newBusiness(), "GET", "/tools/merchants/categories?countTotal=true");
    expect(counted.body.metadata).toEqual({ hasMore: false, totalCount: categories.length });
  });

  it("places every merchant of the directory in its category's MCC ranges", async () => {
    const ranges = new Map((await categoriesOf()).map((c) => [c.name, c.mccRanges.join(",")]));
    const merchants = (await call(h, newBusiness(), "GET", "/tools/merchants?limit=100")).body.data as Array<{
      mcc: string;
      category: string;
    }>;
    for (const m of merchants)
      expect([m.category, mccInList(m.mcc, ranges.get(m.category) ?? "")]).toEqual([m.category, true]);
  });

  it("names what card controls accept: a card takes every category name and the directory's merchant ids", async () => {
    const names = (await categoriesOf()).map((c) => c.name);
    const as = newBusiness();
    const card = await issueCard(h, as, {
      controls: { blockedCategories: names, allowedMerchants: [SKYWAY_AIR], blockedMerchants: [NAIJA_STAKES] },
    });
    const record = (await call(h, as, "GET", `/cards/${card.cardId}`)).body.data;
    expect(record.controls).toEqual({
      blockedCategories: names,
      allowedMerchants: [SKYWAY_AIR],
      blockedMerchants: [NAIJA_STAKES],
    });
    const capture = await call(h, as, "POST", `/simulation/cards/${card.cardId}/request-authorization/capture`, {
      amount: 1_000,
      channel: "pos",
      merchant: NAIJA_STAKES,
    });
    expect(capture.body.data).toMatchObject({
      status: "declined",
      merchant: NAIJA_STAKES,
      declineReason: "spending-control",
      statusReason: "merchant-not-allowed",
    });
  });
});
