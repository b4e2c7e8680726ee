import { describe, expect, it } from "vitest";
import { openApiDocument } from "./document";

type Json = Record<string, any>;
const doc = openApiDocument() as Json;
const operations = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
  Object.entries(item as Json).map(([method, op]) => ({ path, method, op: op as Json })),
);
const isAdmin = (op: Json) => (op.security ?? []).some((s: Json) => "operatorToken" in s);

describe("the 429 answer in the OpenAPI document", () => {
  it("is shared, with Retry-After, RateLimit-Policy and RateLimit", () => {
    const shared = doc.components.responses.TooManyRequests;
    expect(Object.keys(shared.headers)).toEqual(["Retry-After", "RateLimit-Policy", "RateLimit"]);
    expect(shared.content["application/json"].examples.rateLimited.value).toMatchObject({
      statusCode: 429,
      code: "rate-limited",
    });
  });

  it("is on every tenant operation, and not on the simulation's or the operator's", () => {
    for (const { path, method, op } of operations) {
      const exempt = isAdmin(op) || path.startsWith("/simulation/");
      expect(op.responses["429"]?.$ref, `${method} ${path}`).toBe(
        exempt ? undefined : "#/components/responses/TooManyRequests",
      );
    }
    expect(operations.some((o) => o.path.startsWith("/simulation/"))).toBe(true);
  });
});
