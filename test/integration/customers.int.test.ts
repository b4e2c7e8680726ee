import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../support/eventually";
import { createScratchDatabase, DATABASE_URL, HAS_INFRASTRUCTURE, KAFKA_BROKERS } from "./support/infrastructure";
import { startPlatform, type Platform } from "./support/service-processes";
import { readTopic, type TopicReader } from "./support/topic-reader";

const customer = (reference: string) => ({
  name: "Ada Obi",
  reference,
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
  metadata: { source: "integration" },
});

describe.skipIf(!HAS_INFRASTRUCTURE)("customers against real Kafka and PostgreSQL, services as processes", () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let platform: Platform;
  let topic: TopicReader;
  let testKey: string;

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(platform.gatewayUrl + path, {
      method,
      headers: { authorization: `Bearer ${testKey}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    database = await createScratchDatabase(DATABASE_URL!);
    platform = await startPlatform(database.url, KAFKA_BROKERS!);
    topic = await readTopic(KAFKA_BROKERS!, "customers.v1");
    const res = await fetch(`${platform.gatewayUrl}/admin/businesses`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-operator-token": platform.operatorToken },
      body: JSON.stringify({ name: "Integration Ltd", webhookUrl: "http://127.0.0.1:4999/hook" }),
    });
    expect(res.status).toBe(201);
    testKey = ((await res.json()) as { data: { testKey: string } }).data.testKey;
  });

  afterAll(async () => {
    await topic?.stop();
    await platform?.stop();
    await database?.drop();
  });

  it("every service is healthy and refuses requests that skip the gateway", async () => {
    for (const p of platform.processes.values()) {
      expect((await fetch(`${p.url}/health`)).status).toBe(200);
    }
    const direct = await fetch(`${platform.processes.get("customer-service")!.url}/customers`);
    expect(direct.status).toBe(401);
  });

  it("a customer created through the gateway yields exactly one customers.v1 message", async () => {
    const created = await api("POST", "/customers", customer("int-1"));
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    await eventually(() => expect(topic.byKey(id)).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 1_500));
    expect(topic.byKey(id)).toHaveLength(1);
    expect(topic.byKey(id)[0]).toMatchObject({
      type: "customer.created",
      mode: "test",
      data: { id, reference: "int-1" },
    });
    const listed = await api("GET", "/customers?limit=5");
    expect(listed.body.data.map((c: { id: string }) => c.id)).toContain(id);
  });

  it("killed between its commit and the publish, the customer-service publishes exactly once after restart", async () => {
    await platform.restart("customer-service", { CARDHOLD_FAILPOINTS: "customer-service:after-commit" });
    const attempt = await api("POST", "/customers", customer("int-crash"));
    expect(attempt.status).toBe(503);
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    const { rows } = await db.query("SELECT id FROM customers.customers WHERE reference = 'int-crash'");
    await db.end();
    expect(rows).toHaveLength(1);
    const id = rows[0].id as string;
    await new Promise((r) => setTimeout(r, 1_000));
    expect(topic.byKey(id)).toHaveLength(0);

    await platform.restart("customer-service");
    await eventually(() => expect(topic.byKey(id)).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 1_500));
    expect(topic.byKey(id)).toHaveLength(1);
    expect((await api("GET", `/customers/${id}`)).body.data.reference).toBe("int-crash");
  });

  it("customers.v1 reaches the engine's and the bill-service's projections through Kafka", async () => {
    const id = (await api("POST", "/customers", customer("int-proj"))).body.data.id as string;
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      for (const schema of ["engine", "bills"]) {
        await eventually(async () => {
          const { rows } = await db.query(`SELECT status FROM ${schema}.customers WHERE id = $1`, [id]);
          expect(rows).toEqual([{ status: "active" }]);
        }).catch((error: unknown) => {
          // Seen once in CI and not reproduced: say where the message stopped.
          const published = topic.byKey(id).length;
          const logs = (["customer-service", "authorization-engine", "bill-service"] as const)
            .map((name) => `--- ${name}\n${platform.processes.get(name)?.output().slice(-4_000)}`)
            .join("\n");
          throw new Error(`${String(error)}\ncustomers.v1 messages for ${id}: ${published}\n${logs}`);
        });
      }
    } finally {
      await db.end();
    }
  });
});
