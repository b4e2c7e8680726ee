import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAllInOne, type AllInOne } from "./all-in-one";

let platform: AllInOne;
let key: string;

beforeAll(async () => {
  platform = await startAllInOne({ port: 0, logLevel: "silent" });
  key = platform.defaultBusiness.testKey;
  for (let i = 0; i < 6; i++) {
    const res = await get("/customers", "POST", {
      name: `Customer ${i}`,
      reference: `q-${i}`,
      type: "individual",
      claims: {
        individualInformation: {
          firstName: "A",
          lastName: `L${i}`,
          email: `c${i}@example.com`,
          phoneNumber: "+2348012345678",
          dateOfBirth: "1990-01-01",
        },
      },
      verifications: [i % 2 ? "tier-1" : "tier-2"],
      metadata: { userId: i, segment: i < 3 ? "retail" : "sme" },
    });
    expect(res.status).toBe(201);
  }
});
afterAll(async () => {
  await platform?.stop();
});

async function get(path: string, method = "GET", body?: unknown) {
  const res = await fetch(platform.url + path, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const query = (params: Record<string, string | string[]>) => {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const one of [v].flat()) search.append(k, one);
  return `?${search.toString().replace(/=(&|$)/g, "$1")}`;
};

describe("the list query language on /customers", () => {
  it("filters on metadata and claims, counts, selects and sorts", async () => {
    const retail = await get(
      `/customers${query({ filter: "metadata.segment:retail metadata.userId>0", countTotal: "" })}`,
    );
    expect(retail.body.data.map((c: any) => c.metadata.userId).sort()).toEqual([1, 2]);
    expect(retail.body.metadata).toEqual({ hasMore: false, totalCount: 2 });
    const byEmail = await get(
      `/customers${query({ filter: "claims.individualInformation.email:c4@example.com", select: "name" })}`,
    );
    expect(byEmail.body.data).toEqual([
      { name: "Customer 4", id: expect.stringMatching(/^cus\./), object: "customer" },
    ]);
    const sorted = await get(`/customers${query({ sort: "-name", limit: "2" })}`);
    expect(sorted.body.data.map((c: any) => c.name)).toEqual(["Customer 5", "Customer 4"]);
    const tiers = await get(
      `/customers${query({ or: "verifications:tier-1 name:<Customer 0>", select: "-claims -metadata" })}`,
    );
    expect(tiers.body.data.map((c: any) => c.name).sort()).toEqual([
      "Customer 0",
      "Customer 1",
      "Customer 3",
      "Customer 5",
    ]);
    expect(tiers.body.data[0]).not.toHaveProperty("claims");
  });

  it("answers a malformed filter with exactly the interface's body, other problems with a named 400", async () => {
    expect(await get(`/customers${query({ filter: "name|nope|x" })}`)).toEqual({
      status: 400,
      body: { statusCode: 400, message: "The format of the filter parameter is incorrect" },
    });
    const unknown = await get(`/customers${query({ filter: "colour:red" })}`);
    expect(unknown).toMatchObject({
      status: 400,
      body: { code: "invalid-query", message: expect.stringContaining("colour") },
    });
    const cursor = await get(`/customers${query({ after: "cus.doesnotexist" })}`);
    expect(cursor).toMatchObject({ status: 400, body: { message: expect.stringContaining("cus.doesnotexist") } });
    // Valid for JavaScript, refused by PostgreSQL: still a 400, not a 500.
    const regex = await get(`/customers${query({ filter: "name~\\p{L}" })}`);
    expect(regex.status).toBe(400);
  });
});

describe("/logs", () => {
  it("lists the gateway's request log through the same language, with the API key expandable", async () => {
    const logs = await get(
      `/logs${query({ filter: "method|eq|POST path|eq|/customers", select: "path method", countTotal: "" })}`,
    );
    expect(logs.status).toBe(200);
    expect(logs.body.metadata.totalCount).toBeGreaterThanOrEqual(6);
    expect(Object.keys(logs.body.data[0]).sort()).toEqual(["id", "method", "object", "path"]);

    const expanded = await get(`/logs${query({ filter: "status:201", expand: "apiKey", limit: "1" })}`);
    const entry = expanded.body.data[0];
    expect(entry).toMatchObject({
      method: "POST",
      path: "/customers",
      status: 201,
      apiKey: { object: "apiKey", mode: "test", last4: key.slice(-4) },
    });
    expect(JSON.stringify(entry)).not.toContain(key);
    expect(entry.requestBody).toMatchObject({ reference: expect.stringMatching(/^q-/) });

    const subset = await get(`/logs${query({ expand: "apiKey:last4", limit: "1" })}`);
    expect(Object.keys(subset.body.data[0].apiKey).sort()).toEqual(["id", "last4", "object"]);
  });

  it("redacts secrets from logged bodies", async () => {
    await get("/customers", "POST", { name: "x", signingKey: "top-secret-signing-key", pin: "1234" });
    const logs = await get(`/logs${query({ filter: "status:400", limit: "5" })}`);
    const text = JSON.stringify(logs.body.data);
    expect(text).not.toContain("top-secret-signing-key");
    expect(text).toContain("[redacted]");
  });
});

describe("whatever arrives in the query parameters", () => {
  const PARAMS = ["filter", "or", "nor", "and", "select", "expand", "sort", "limit", "before", "after", "countTotal"];
  const text = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc
      .array(
        fc.constantFrom(
          "name",
          "metadata.userId",
          "createdAt",
          "verifications",
          "claims.a",
          "|",
          ":",
          ">",
          "<",
          "~",
          '"',
          "\\",
          " ",
          ",",
          "|gtd|",
          "|in|",
          "|size|",
          "2023-02-30",
          "-1",
          "(",
          "[",
          "9999999999",
        ),
        { maxLength: 8 },
      )
      .map((a) => a.join("")),
  );

  it.each(["/customers", "/logs"])("%s answers 200 or 400, never 500", async (path) => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom(...PARAMS), fc.oneof(text, fc.array(text, { maxLength: 2 }))),
        async (params) => {
          const res = await get(`${path}${query(params)}`);
          if (res.status !== 200 && res.status !== 400)
            throw new Error(`${res.status} for ${JSON.stringify(params)}: ${JSON.stringify(res.body)}`);
        },
      ),
      { numRuns: 150 },
    );
  });
});
