import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, newBusiness, startHarness, type Harness } from "./harness";

/** The original interface's customer creation answer (test/fixtures, from the provider's documentation). */
const fixture = JSON.parse(
  await readFile(new URL("../../../test/fixtures/customer-create-response.json", import.meta.url), "utf8"),
).data;

/** The documented request: the fixture's fields, an identity document url, and no postalCode (requests never send it). */
function documentedRequest(reference: string) {
  const { postalCode: _notInRequests, ...address } = fixture.claims.individualAddress;
  return {
    name: fixture.name,
    reference,
    type: "individual",
    claims: {
      ...fixture.claims,
      individualAddress: address,
      individualIdentity: { ...fixture.claims.individualIdentity, url: "https://example.com/bvn.png" },
    },
    verifications: ["tier-2"],
    metadata: fixture.metadata,
  };
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

describe("customer records in the documented shape", () => {
  it("answers the documented request with the fixture's record: postalCode present, identity url dropped", async () => {
    const as = newBusiness();
    const created = await call(h, as, "POST", "/customers", documentedRequest("user-2345"));
    expect(created.status).toBe(201);
    const { id, createdAt, updatedAt, reference, ...shown } = created.body.data;
    const { id: _id, createdAt: _c, updatedAt: _u, ...documented } = fixture;
    expect(shown).toEqual({
      ...documented,
      claims: { ...documented.claims, individualAddress: { ...documented.claims.individualAddress, postalCode: "" } },
    });
    expect(id).toMatch(/^cus\.[1-9A-HJ-NP-Za-km-z]{17}$/);
    expect(reference).toBe("user-2345");
    expect(createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(updatedAt).toBe(createdAt);
    expect(created.body.data.claims.individualIdentity).not.toHaveProperty("url");
  });

  it("stores a postalCode when one is sent, and answers it on create, read, list and customers.v1", async () => {
    const as = newBusiness();
    const body = documentedRequest("with-postal-code");
    body.claims.individualAddress = { ...body.claims.individualAddress, postalCode: "11041" };
    const created = await call(h, as, "POST", "/customers", body);
    expect(created.status).toBe(201);
    expect(created.body.data.claims.individualAddress).toEqual(fixture.claims.individualAddress);
    const id = created.body.data.id;
    const read = await call(h, as, "GET", `/customers/${id}`);
    expect(read.body.data.claims.individualAddress.postalCode).toBe("11041");
    const listed = await call(h, as, "GET", "/customers?filter=claims.individualAddress.postalCode:11041");
    expect(listed.body.data.map((c: { id: string }) => c.id)).toEqual([id]);
    await expect
      .poll(() => h.published.find((m) => m.data.id === id)?.data.claims)
      .toMatchObject({ individualAddress: { postalCode: "11041" } });
  });

  it('answers postalCode "" on an address that never had one, after an update too; addressLineTwo may be null', async () => {
    const as = newBusiness();
    const created = await call(h, as, "POST", "/customers", documentedRequest("no-postal-code"));
    const body = documentedRequest("no-postal-code");
    body.claims.individualAddress = { ...body.claims.individualAddress, addressLineTwo: null };
    const updated = await call(h, as, "PUT", `/customers/${created.body.data.id}`, body);
    expect(updated.status).toBe(200);
    expect(updated.body.data.claims.individualAddress).toMatchObject({ addressLineTwo: null, postalCode: "" });
    const listed = await call(h, as, "GET", "/customers");
    expect(listed.body.data[0].claims.individualAddress.postalCode).toBe("");
  });

  it("gives an individual sent without an address no address (nothing is made up)", async () => {
    const as = newBusiness();
    const body = documentedRequest("no-address");
    const { individualAddress: _none, ...claims } = body.claims;
    const created = await call(h, as, "POST", "/customers", { ...body, claims });
    expect(created.status).toBe(201);
    expect(created.body.data.claims).not.toHaveProperty("individualAddress");
  });

  it("refuses a postalCode that is not text, and an over-long one, with a 400 naming the field", async () => {
    const as = newBusiness();
    for (const postalCode of [11041, "1".repeat(21)]) {
      const body = documentedRequest(`bad-${String(postalCode).length}`);
      body.claims.individualAddress = { ...body.claims.individualAddress, postalCode } as never;
      const res = await call(h, as, "POST", "/customers", body);
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(["claims.individualAddress.postalCode"]);
    }
  });
});

describe("the original interface's page parameter", () => {
  it("pages from 0 by limit, newest first; with a cursor, or past the first 10,000 items, it is a 400", async () => {
    const as = newBusiness();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.unshift((await call(h, as, "POST", "/customers", documentedRequest(`p-${i}`))).body.data.id);
    const page = async (query: string) => (await call(h, as, "GET", `/customers?${query}`)).body;
    const idsOf = (body: { data: Array<{ id: string }> }) => body.data.map((c) => c.id);
    expect(idsOf(await page("limit=2&page=0"))).toEqual(ids.slice(0, 2));
    expect(idsOf(await page("limit=2&page=1"))).toEqual(ids.slice(2, 4));
    expect(await page("limit=2&page=2")).toMatchObject({ data: [{ id: ids[4] }], metadata: { hasMore: false } });
    expect(await page("limit=2&page=3")).toMatchObject({ data: [], metadata: { hasMore: false } });
    for (const bad of ["page=-1", "page=x", `page=1&after=${ids[0]}`, "limit=100&page=101"]) {
      const answer = await call(h, as, "GET", `/customers?${bad}`);
      expect(answer.status, bad).toBe(400);
      expect(answer.body.code, bad).toBe("invalid-query");
    }
  });
});
