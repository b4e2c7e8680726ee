import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBusiness } from "../support/api-client";
import { eventually } from "../support/eventually";
import { createScratchDatabase, DATABASE_URL, HAS_INFRASTRUCTURE, KAFKA_BROKERS } from "./support/infrastructure";
import { startPlatform, type Platform } from "./support/service-processes";

const KILL_BEFORE_ANSWER = { CARDHOLD_FAILPOINTS: "idempotent-write:before-answer" };

describe.skipIf(!HAS_INFRASTRUCTURE)("an Idempotency-Key across a process killed after its commit", () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let platform: Platform;
  let testKey: string;

  const api = async (method: string, path: string, body?: unknown, key?: string) => {
    const res = await fetch(platform.gatewayUrl + path, {
      method,
      headers: {
        authorization: `Bearer ${testKey}`,
        "content-type": "application/json",
        ...(key && { "idempotency-key": key }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any, replayed: res.headers.get("idempotent-replayed") };
  };
  const rowsOf = async (sql: string, values: unknown[]) => {
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      return (await db.query(sql, values)).rows;
    } finally {
      await db.end();
    }
  };

  beforeAll(async () => {
    database = await createScratchDatabase(DATABASE_URL!);
    platform = await startPlatform(database.url, KAFKA_BROKERS!);
    testKey = (
      await createBusiness(platform.gatewayUrl, platform.operatorToken, {
        name: "Idempotent Ltd",
        webhookUrl: "http://127.0.0.1:4999/hook",
      })
    ).testKey;
  });

  afterAll(async () => {
    await platform?.stop();
    await database?.drop();
  });

  const customer = {
    name: "Ada Obi",
    reference: "idem-crash",
    type: "individual",
    claims: {
      individualInformation: {
        firstName: "Ada",
        lastName: "Obi",
        email: "ada@example.com",
        phoneNumber: "+2348012345678",
        dateOfBirth: "1990-01-31",
      },
    },
    verifications: ["tier-1"],
    metadata: {},
  };

  it("a card funded by a process killed before its answer is funded once, and the retry gets its answer", async () => {
    const customerId = (await api("POST", "/customers", { ...customer, reference: "idem-holder" })).body.data.id;
    const program = (
      await api("POST", "/card-programs", {
        name: "Funded",
        network: "verve",
        type: "virtual",
        currency: "NGN",
        authorization: { fundingSourceType: "card-account" },
      })
    ).body.data;
    const settlement = program.authorization.settlementAccount as string;
    const accountNumber = (await api("GET", `/accounts/${settlement}`)).body.data.depositChannels[0].accountNumber;
    expect((await api("POST", "/simulation/payments/pay-in", { accountNumber, amount: 100_000 })).status).toBe(200);
    const card = await eventually(async () => {
      const created = await api("POST", "/cards", { program: program.id, customer: customerId, reference: "c-1" });
      expect(created.status).toBe(201);
      return created.body.data;
    }, 60_000);
    const available = async () => (await api("GET", `/cards/${card.id}/funding-source/balance`)).body.data.available;

    await platform.restart("authorization-engine", KILL_BEFORE_ANSWER);
    const funding = { amount: 30_000, debitSource: settlement };
    expect((await api("POST", `/cards/${card.id}/fund`, funding, "fund-c-1")).status).toBe(503);

    await platform.restart("authorization-engine");
    expect(await available()).toBe(30_000);
    const retry = await api("POST", `/cards/${card.id}/fund`, funding, "fund-c-1");
    expect(retry).toMatchObject({ status: 200, replayed: "true", body: { data: { available: 30_000 } } });
    expect(await available()).toBe(30_000);
  });

  it("a customer created by a process killed before its answer is created once, and the retry gets its answer", async () => {
    await platform.restart("customer-service", KILL_BEFORE_ANSWER);
    expect((await api("POST", "/customers", customer, "create-ada")).status).toBe(503);
    const rows = await rowsOf("SELECT id FROM customers.customers WHERE reference = $1", ["idem-crash"]);
    expect(rows).toHaveLength(1);

    await platform.restart("customer-service");
    const retry = await api("POST", "/customers", customer, "create-ada");
    expect(retry).toMatchObject({ status: 201, replayed: "true", body: { data: { id: rows[0].id } } });
    expect(await rowsOf("SELECT id FROM customers.customers WHERE reference = $1", ["idem-crash"])).toHaveLength(1);
  });
});
