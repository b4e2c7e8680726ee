import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callGateway, createBusiness } from "../support/api-client";
import { eventually } from "../support/eventually";
import { createScratchDatabase, DATABASE_URL, HAS_INFRASTRUCTURE, KAFKA_BROKERS } from "./support/infrastructure";
import {
  freePort,
  startPlatform,
  startServiceProcess,
  type Platform,
  type RunningProcess,
} from "./support/service-processes";

const KILL_BEFORE_ANSWER = { CARDHOLD_FAILPOINTS: "idempotent-write:before-answer" };
const ELECTRICITY = "bp.11pALsZ5v2NiSC34t";

/**
 * Each write's first request goes through one gateway to a service killed after its commit and before its answer; the
 * client's retry with the same Idempotency-Key goes through a second gateway (as behind any load balancer) to the
 * restarted service. The effect happens once and the retry is answered with it.
 */
describe.skipIf(!HAS_INFRASTRUCTURE)("an Idempotency-Key across a process killed after its commit", () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let platform: Platform;
  let secondGateway: RunningProcess;
  let secondGatewayUrl: string;
  let testKey: string;
  let settlement: string;
  let settlementNumber: string;

  type Gateway = "first" | "second";
  const api = async (method: string, path: string, body?: unknown, key?: string, via: Gateway = "first") => {
    const url = via === "first" ? platform.gatewayUrl : secondGatewayUrl;
    const reply = await callGateway(url, method, path, {
      key: testKey,
      body,
      headers: key ? { "idempotency-key": key } : {},
    });
    return {
      status: reply.status,
      body: reply.body,
      replayed: reply.headers.get("idempotent-replayed"),
      retryAfter: Number(reply.headers.get("retry-after")),
    };
  };
  /** A client's retry: while the dead request's claim has not lapsed the key answers 409; wait as Retry-After says. */
  const retry = async (method: string, path: string, body: unknown, key: string) => {
    for (;;) {
      const reply = await api(method, path, body, key, "second");
      if (reply.status !== 409) return reply;
      expect(reply.retryAfter, JSON.stringify(reply.body)).toBeGreaterThanOrEqual(1);
      await new Promise((resolve) => setTimeout(resolve, reply.retryAfter * 1000));
    }
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
  const available = async (accountId: string) =>
    (await api("GET", `/accounts/${accountId}/balance`)).body.data.available as number;

  beforeAll(async () => {
    database = await createScratchDatabase(DATABASE_URL!);
    platform = await startPlatform(database.url, KAFKA_BROKERS!);
    const port = await freePort();
    secondGateway = await startServiceProcess("api-gateway", platform.env, port);
    secondGatewayUrl = `http://127.0.0.1:${port}`;
    testKey = (
      await createBusiness(platform.gatewayUrl, platform.operatorToken, {
        name: "Idempotent Ltd",
        webhookUrl: "http://127.0.0.1:4999/hook",
      })
    ).testKey;
    const account = await eventually(async () => {
      const list = await api("GET", "/accounts?filter=currency:NGN");
      expect(list.body.data).toHaveLength(1);
      return list.body.data[0];
    }, 30_000);
    settlement = account.id;
    settlementNumber = account.depositChannels[0].accountNumber;
    expect(
      (await api("POST", "/simulation/payments/pay-in", { accountNumber: settlementNumber, amount: 500_000 })).status,
    ).toBe(200);
  });

  afterAll(async () => {
    await secondGateway?.kill("SIGTERM");
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

  /** A customer and a card-account program, reachable from the engine (its customer projection is eventual). */
  const cardSetup = async (reference: string) => {
    const customerId = (await api("POST", "/customers", { ...customer, reference })).body.data.id as string;
    const program = (
      await api("POST", "/card-programs", {
        name: `Funded ${reference}`,
        network: "verve",
        type: "virtual",
        currency: "NGN",
        authorization: { fundingSourceType: "card-account" },
      })
    ).body.data;
    await eventually(async () => {
      const probe = await api("POST", "/cards", {
        program: program.id,
        customer: customerId,
        reference: `${reference}-probe`,
      });
      expect(probe.status).toBe(201);
    }, 60_000);
    return { customerId, program };
  };

  it("a card created by a killed process exists once, and the retry through the other gateway gets its answer", async () => {
    const { customerId, program } = await cardSetup("idem-card-holder");
    await platform.restart("authorization-engine", KILL_BEFORE_ANSWER);
    const card = { program: program.id, customer: customerId, reference: "card-crash" };
    expect((await api("POST", "/cards", card, "create-card-1")).status).toBe(503);
    const rows = await rowsOf("SELECT id FROM engine.cards WHERE reference = $1", ["card-crash"]);
    expect(rows).toHaveLength(1);

    await platform.restart("authorization-engine");
    const retried = await retry("POST", "/cards", card, "create-card-1");
    expect(retried).toMatchObject({ status: 201, replayed: "true", body: { data: { id: rows[0].id } } });
    expect(await rowsOf("SELECT id FROM engine.cards WHERE reference = $1", ["card-crash"])).toHaveLength(1);
  });

  it("a card funded by a killed process is funded once, and the retry through the other gateway gets its answer", async () => {
    const { customerId, program } = await cardSetup("idem-fund-holder");
    const card = (await api("POST", "/cards", { program: program.id, customer: customerId, reference: "c-1" })).body
      .data;
    const cardAvailable = async () =>
      (await api("GET", `/cards/${card.id}/funding-source/balance`)).body.data.available;

    await platform.restart("authorization-engine", KILL_BEFORE_ANSWER);
    const funding = { amount: 30_000, debitSource: settlement };
    expect((await api("POST", `/cards/${card.id}/fund`, funding, "fund-c-1")).status).toBe(503);

    await platform.restart("authorization-engine");
    expect(await cardAvailable()).toBe(30_000);
    const retried = await retry("POST", `/cards/${card.id}/fund`, funding, "fund-c-1");
    expect(retried).toMatchObject({ status: 200, replayed: "true", body: { data: { available: 30_000 } } });
    expect(await cardAvailable()).toBe(30_000);
  });

  it("a pay-in recorded by a killed process credits once, and the retry through the other gateway gets its answer", async () => {
    const before = await available(settlement);
    await platform.restart("authorization-engine", KILL_BEFORE_ANSWER);
    const payIn = { accountNumber: settlementNumber, amount: 12_345 };
    expect((await api("POST", "/simulation/payments/pay-in", payIn, "pay-in-1")).status).toBe(503);

    await platform.restart("authorization-engine");
    expect(await available(settlement)).toBe(before + 12_345);
    const retried = await retry("POST", "/simulation/payments/pay-in", payIn, "pay-in-1");
    expect(retried).toMatchObject({ status: 200, replayed: "true", body: { data: { id: settlement } } });
    expect(await available(settlement)).toBe(before + 12_345);
  });

  it("a bill paid by a killed process is debited once, and the retry through the other gateway answers that payment", async () => {
    const before = await available(settlement);
    await platform.restart("bill-service", KILL_BEFORE_ANSWER);
    const bill = { product: ELECTRICITY, inputs: { meterNumber: "45000000003", amount: "200000" } };
    expect((await api("POST", "/payments/bill", bill, "bill-1")).status).toBe(503);
    const rows = await rowsOf("SELECT id FROM bills.payments WHERE amount = 200000", []);
    expect(rows).toHaveLength(1);

    await platform.restart("bill-service");
    const retried = await retry("POST", "/payments/bill", bill, "bill-1");
    expect(retried.status).toBeLessThan(300);
    expect(retried.body.data).toMatchObject({ id: rows[0].id, status: "successful" });
    expect(await rowsOf("SELECT id FROM bills.payments WHERE amount = 200000", [])).toHaveLength(1);
    expect(await available(settlement)).toBe(before - 210_000);
  });

  it("a customer created by a killed process is created once, and the retry gets its answer", async () => {
    await platform.restart("customer-service", KILL_BEFORE_ANSWER);
    expect((await api("POST", "/customers", customer, "create-ada")).status).toBe(503);
    const rows = await rowsOf("SELECT id FROM customers.customers WHERE reference = $1", ["idem-crash"]);
    expect(rows).toHaveLength(1);

    await platform.restart("customer-service");
    const retried = await retry("POST", "/customers", customer, "create-ada");
    expect(retried).toMatchObject({ status: 201, replayed: "true", body: { data: { id: rows[0].id } } });
    expect(await rowsOf("SELECT id FROM customers.customers WHERE reference = $1", ["idem-crash"])).toHaveLength(1);
  });
});
