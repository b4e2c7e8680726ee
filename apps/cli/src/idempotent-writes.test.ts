import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAllInOne, type AllInOne } from "./all-in-one";
import { callGateway, type GatewayCall } from "../../../test/support/api-client";

let platform: AllInOne;
beforeAll(async () => {
  platform = await startAllInOne({ port: 0, logLevel: "silent" });
});
afterAll(async () => {
  await platform?.stop();
});

const call = (method: string, path: string, opts: GatewayCall = {}) =>
  callGateway(platform.url, method, path, { key: platform.defaultBusiness.testKey, ...opts });

interface Operation {
  parameters?: { in: string; name: string }[];
  requestBody?: { content: { "application/json"?: { example?: unknown } } };
}

/**
 * Every write of the public API, as the OpenAPI document lists it (the operator's /admin endpoints are not in it, nor
 * the console's session: signing in again is not a retry).
 */
async function writesOfTheApi(): Promise<{ method: string; path: string; operation: Operation }[]> {
  const doc = (await call("GET", "/openapi.json")).body as { paths: Record<string, Record<string, Operation>> };
  return Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(
        ([method]) =>
          ["post", "put", "patch"].includes(method) && !path.startsWith("/admin/") && !path.startsWith("/console/"),
      )
      .map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
}

async function customerFixture() {
  const url = new URL("../../../test/fixtures/customer-create-response.json", import.meta.url);
  const { name, type, claims } = JSON.parse(await readFile(url, "utf8")).data;
  return { name, type, claims };
}

const withIds = (path: string) => path.replace(/\{[^}]+\}/g, "x.11111111111111111");

describe("Idempotency-Key through the gateway", () => {
  it("every write of the OpenAPI document answers a repeat with its first answer, marked replayed", async () => {
    const writes = await writesOfTheApi();
    expect(writes.length).toBeGreaterThan(25);
    for (const [i, { method, path, operation }] of writes.entries()) {
      expect(operation.parameters?.some((p) => p.in === "header" && p.name === "Idempotency-Key")).toBe(true);
      const key = `walk-${i}-${Date.now()}`;
      const body = operation.requestBody?.content["application/json"]?.example ?? {};
      const first = await call(method, withIds(path), { body, headers: { "idempotency-key": key } });
      const again = await call(method, withIds(path), { body, headers: { "idempotency-key": key } });
      const seen = {
        route: `${method} ${path}`,
        status: again.status,
        replayed: again.headers.get("idempotent-replayed"),
      };
      expect(seen).toEqual({ route: `${method} ${path}`, status: first.status, replayed: "true" });
      // A new API key's secret is shown once and never stored: the replay names the same key, its secret null.
      const firstAnswer =
        path === "/api-keys" && first.status === 201
          ? { ...first.body, data: { ...first.body.data, secret: null } }
          : first.body;
      expect(again.body).toEqual(firstAnswer);
      expect(first.headers.get("idempotent-replayed")).toBeNull();
    }
  });

  it("refuses a bad key with 400 in the gateway's error shape, an empty one included", async () => {
    for (const key of ["", "x".repeat(256)]) {
      const reply = await call("POST", "/customers", { body: {}, headers: { "idempotency-key": key } });
      expect(reply).toMatchObject({
        status: 400,
        body: { statusCode: 400, code: "invalid-idempotency-key", message: expect.stringContaining("Idempotency-Key") },
      });
    }
  });

  it("POST /cards/:id/fund sent twice with one key funds once", async () => {
    const settlement = (await call("GET", "/accounts?filter=currency:NGN")).body.data[0];
    await call("POST", "/simulation/payments/pay-in", {
      body: { accountNumber: settlement.depositChannels[0].accountNumber, amount: 100_000 },
    });
    const program = await call("POST", "/card-programs", {
      body: {
        name: "Funded",
        network: "verve",
        type: "virtual",
        currency: "NGN",
        authorization: { fundingSourceType: "card-account" },
      },
    });
    const customer = await call("POST", "/customers", {
      body: { ...(await customerFixture()), reference: `idem-${Date.now()}`, verifications: ["tier-2"], metadata: {} },
    });
    expect(customer.status).toBe(201);
    const card = await call("POST", "/cards", {
      body: { program: program.body.data.id, customer: customer.body.data.id, reference: `idem-${Date.now()}` },
    });
    expect(card.status).toBe(201);
    const fund = () =>
      call("POST", `/cards/${card.body.data.id}/fund`, {
        body: { amount: 30_000, debitSource: program.body.data.authorization.settlementAccount },
        headers: { "idempotency-key": `fund-${card.body.data.id}` },
      });
    const first = await fund();
    const again = await fund();
    expect(first).toMatchObject({ status: 200, body: { data: { available: 30_000 } } });
    expect(again).toMatchObject({ status: 200, body: first.body });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const balance = await call("GET", `/cards/${card.body.data.id}/funding-source/balance`);
    expect(balance.body.data.available).toBe(30_000);
  });
});
