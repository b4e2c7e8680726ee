import pg from "pg";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, createBusiness, type ApiReply } from "../support/api-client";
import { eventually } from "../support/eventually";
import { FakeReceiver } from "../support/fake-receiver";
import { ledgerProblems } from "../support/ledger-invariants";
import { scrape } from "../support/metrics-scrape";
import { missingFinalEvents, stillBusy, type ReceivedEnvelope } from "../support/platform-audit";
import { createScratchDatabase, DATABASE_URL, HAS_INFRASTRUCTURE, KAFKA_BROKERS } from "./support/infrastructure";
import { startScaledPlatform, type ScaledPlatform } from "./support/scaled-platform";
import { untilDispatcherRoutesTo } from "./support/dispatcher-routing";

/** A request of the load: which gateway it went through and what came back (status 0: cut off on the way). */
interface Sent {
  op: "capture" | "reverse" | "customer";
  gateway: number;
  at: number;
  reply: ApiReply;
}

/** One line of the run's report (wall times, outcomes, duplicates). */
const report = (line: string) => process.stdout.write(`${line}\n`);

const individual = (n: string) => ({
  name: `Holder ${n}`,
  reference: `holder-${n}`,
  type: "individual",
  verifications: ["tier-2"],
  metadata: {},
  claims: {
    individualInformation: {
      firstName: "Holder",
      lastName: n,
      email: `h${n}@example.com`,
      phoneNumber: "+2348012345678",
      dateOfBirth: "1990-05-01",
    },
  },
});

/** Authorizations whose reversal reached the receiver before their closing: per-resource order broken. */
function reversedBeforeClosed(envelopes: ReceivedEnvelope[]): string[] {
  const first = new Map<string, number>();
  envelopes.forEach((e, i) => {
    const key = `${e.data?.id} ${e.event}`;
    if (!first.has(key)) first.set(key, i);
  });
  const broken: string[] = [];
  for (const [key, at] of first) {
    const [id, kind] = key.split(" ");
    const closedAt = first.get(`${id} card.authorization.closed`);
    if (kind === "card.authorization.update" && closedAt !== undefined && closedAt > at) broken.push(id!);
  }
  return broken;
}

/**
 * Two instances of every service against one Kafka and one PostgreSQL, all started at the same moment on a fresh
 * database; a mixed load through both gateways in turn; then one engine and one dispatcher SIGKILLed mid-load. Every
 * authorization must end once, every recorded event reach the receiver, and either gateway answer for the other.
 */
describe.skipIf(!HAS_INFRASTRUCTURE)("scale-out: two instances of every service", () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let platform: ScaledPlatform;
  let db: pg.Client;
  let key = "";
  let businessId = "";
  const cards: string[] = [];
  const receiver = new FakeReceiver();
  const sent: Sent[] = [];

  const via = (gateway: number) =>
    apiClient(
      () => platform.gatewayUrls[gateway]!,
      () => key,
    );
  const query = (text: string) => db.query(text);

  /** Sends `ops` with `concurrency` at a time, request i through gateway i % 2; a cut-off request counts as status 0. */
  async function runLoad(
    ops: Array<Omit<Sent, "gateway" | "at" | "reply"> & { path: string; body: unknown }>,
    concurrency: number,
    onReply?: (done: number) => void,
  ) {
    let next = 0;
    let done = 0;
    const worker = async () => {
      while (next < ops.length) {
        const i = next++;
        const op = ops[i]!;
        const gateway = i % platform.gatewayUrls.length;
        const at = Date.now();
        const reply = await via(gateway)("POST", op.path, op.body).catch((error: Error) => ({
          status: 0,
          body: { message: error.message },
        }));
        sent.push({ op: op.op, gateway, at, reply });
        onReply?.(++done);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  }

  const captures = (count: number, label: string) =>
    Array.from({ length: count }, (_, i) => ({
      op: i % 10 === 9 ? ("reverse" as const) : ("capture" as const),
      path: `/simulation/cards/${cards[i % cards.length]}/request-authorization/${i % 10 === 9 ? "reverse-capture" : "capture"}`,
      body: { amount: 1_000 + i, channel: "online", reference: `${label}-${i}` },
    }));

  beforeAll(async () => {
    receiver.answerWith((req) =>
      req.json?.event === "card.authorization.request"
        ? { status: 200, body: { action: "approve", cardBalance: 1, cardHolderName: "Holder" } }
        : { status: 200, body: { code: "success" } },
    );
    await receiver.start();
    database = await createScratchDatabase(DATABASE_URL!);
    // Claims of a killed dispatcher come back after 5 s (the smallest allowed) instead of 30 s.
    platform = await startScaledPlatform(database.url, KAFKA_BROKERS!, 2, { DISPATCHER_CLAIM_MS: "5000" });
    report(`twelve instances ready ${platform.startedInMs} ms after they were spawned together`);
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
    ({ testKey: key, businessId } = await createBusiness(platform.gatewayUrls[0]!, platform.operatorToken, {
      name: "Scale Ltd",
      webhookUrl: receiver.url,
      signingKey: "scale-out-signing-key-0123456789",
    }));
    const api = via(1);
    const customer = (await api("POST", "/customers", individual("0"))).body.data.id as string;
    const [account] = await eventually(async () => {
      const list = await api("GET", "/accounts?filter=currency:NGN");
      expect(list.body.data).toHaveLength(1);
      return list.body.data;
    }, 30_000);
    await api("POST", "/simulation/payments/pay-in", {
      accountNumber: account.depositChannels[0].accountNumber,
      amount: 100_000_000,
      reference: "funding",
    });
    const program = (
      await api("POST", "/card-programs", { name: "Virtual NGN", network: "verve", type: "virtual", currency: "NGN" })
    ).body.data.id;
    for (let n = 0; n < 4; n++) {
      const card = (await via(n % 2)("POST", "/cards", { program, customer, reference: `card-${n}` })).body.data
        .id as string;
      const secrets = await via((n + 1) % 2)("GET", `/cards/${card}/secrets`);
      expect(
        (await via(n % 2)("POST", `/cards/${card}/activate`, { cvv: secrets.body.data.cvv, pin: "2468" })).body.data
          .status,
      ).toBe("active");
      cards.push(card);
    }
    await untilDispatcherRoutesTo(db, receiver.url);
  });

  afterAll(async () => {
    await db?.end();
    await platform?.stop();
    await database?.drop();
    await receiver.stop();
  });

  it("answers the same through either gateway: what one creates the other reads at once", async () => {
    for (let n = 1; n <= 6; n++) {
      const [writer, reader] = n % 2 ? [0, 1] : [1, 0];
      const created = await via(writer)("POST", "/customers", individual(String(n)));
      expect(created.status).toBe(201);
      const read = await via(reader)("GET", `/customers/${created.body.data.id}`);
      expect(read).toEqual({ status: 200, body: created.body });
    }
    const lists = await Promise.all([0, 1].map((g) => via(g)("GET", "/customers?countTotal")));
    expect(lists[0]!.body).toEqual(lists[1]!.body);
  });

  it("a key revoked on one gateway is refused by the other within a second", async () => {
    const admin = { "content-type": "application/json", "x-operator-token": platform.operatorToken };
    const made = await fetch(`${platform.gatewayUrls[0]}/admin/businesses/${businessId}/keys`, {
      method: "POST",
      headers: admin,
      body: JSON.stringify({ mode: "test" }),
    });
    const extra = ((await made.json()) as { data: { id: string; key: string } }).data;
    const statusVia = (gateway: number) =>
      fetch(`${platform.gatewayUrls[gateway]}/customers?limit=1`, {
        headers: { authorization: `Bearer ${extra.key}` },
      }).then((r) => r.status);
    expect([await statusVia(0), await statusVia(1)]).toEqual([200, 200]); // both gateways now hold it in their caches
    const revokedAt = Date.now();
    await fetch(`${platform.gatewayUrls[0]}/admin/businesses/${businessId}/keys/${extra.id}`, {
      method: "DELETE",
      headers: admin,
    });
    expect(await statusVia(0)).toBe(401);
    await eventually(async () => expect(await statusVia(1)).toBe(401), 3_000);
    const refusedAfterMs = Date.now() - revokedAt;
    report(`revoked on gateway A, refused by gateway B after ${refusedAfterMs} ms`);
    expect(refusedAfterMs).toBeLessThan(1_500);
  });

  it("decides a mixed load sent through both gateways in turn, each authorization once", async () => {
    const startedAt = Date.now();
    const customers = Array.from({ length: 10 }, (_, i) => ({
      op: "customer" as const,
      path: "/customers",
      body: individual(`load-${i}`),
    }));
    await runLoad([...captures(100, "load"), ...customers], 8);
    const replies = sent.filter((s) => s.at >= startedAt);
    report(`mixed load: ${replies.length} requests in ${Date.now() - startedAt} ms`);
    const unexpected = replies.filter(
      (s) =>
        s.reply.status >= 300 ||
        (s.op === "capture" && s.reply.body.data.status !== "approved") ||
        (s.op === "reverse" && s.reply.body.data.status !== "reversed"),
    );
    expect(
      unexpected.map((s) => `${s.op} via ${s.gateway}: ${s.reply.status} ${JSON.stringify(s.reply.body)}`),
    ).toEqual([]);
    expect(new Set(replies.map((s) => s.gateway))).toEqual(new Set([0, 1]));
  });

  it("posts each receiver's answer straight back to the engine that asked, few on decisions.v1", async () => {
    // A dispatcher that never counted an outcome exposes no sample for it: 0.
    const counted = async (outcome: string) => {
      let sum = 0;
      for (const dispatcher of platform.instances.filter((i) => i.name === "event-dispatcher"))
        for (const s of await scrape(dispatcher.url))
          if (s.name === "decision_answers_returned_total" && s.labels.outcome === outcome) sum += s.value;
      return sum;
    };
    // The mixed load's 90 captures each asked the receiver once. A post may fall back to decisions.v1 when an engine
    // busy with twelve processes' start on two cores takes more than a second (seen: 3 of ~95); most must not.
    const taken = await counted("taken");
    expect(taken).toBeGreaterThanOrEqual(85);
    expect(await counted("fallback")).toBeLessThanOrEqual(taken / 10);
  });

  it("carries on when one engine and one dispatcher are SIGKILLed mid-load", async () => {
    const startedAt = Date.now();
    let killedAt = Infinity;
    const kill = async () => {
      killedAt = Date.now();
      await Promise.all(
        ["authorization-engine-1", "event-dispatcher-1"].map((id) => platform.instance(id).process!.kill("SIGKILL")),
      );
    };
    let killing: Promise<void> | undefined;
    // Enough that a fast platform still has requests to send well after the kill (60 once left only 19 past 500 ms).
    await runLoad(captures(90, "kill"), 6, (done) => {
      if (done === 12) killing = kill();
    });
    await killing;
    // A fast platform may have sent most of the 90 before the kill settled (CI once saw 18 past 500 ms): the load goes
    // on after it, so what follows the kill is always judged on enough requests.
    await sleep(Math.max(0, killedAt + 500 - Date.now()));
    await runLoad(captures(30, "after-kill"), 6);
    const replies = sent.filter((s) => s.at >= startedAt);
    const outcomes = replies.reduce<Record<string, number>>((n, s) => {
      const key =
        `${s.reply.status} ${s.reply.body?.data?.status ?? s.reply.body?.code ?? ""} ${s.reply.body?.data?.decisionType ?? ""}`.trim();
      return { ...n, [key]: (n[key] ?? 0) + 1 };
    }, {});
    report(
      `load with the kill: ${replies.length} requests in ${Date.now() - startedAt} ms: ${JSON.stringify(outcomes)}`,
    );
    // Only a request under way in a killed engine may be cut off (502 from the balancer); everything after is decided.
    const after = replies.filter((s) => s.at > killedAt + 500);
    expect(after.length).toBeGreaterThan(20);
    expect(after.filter((s) => s.reply.status !== 200).map((s) => JSON.stringify(s.reply))).toEqual([]);
    // The surviving dispatcher delivers the requests and the surviving engine applies the receiver's answers.
    const late = after.slice(-10);
    expect(late.filter((s) => s.reply.body.data.decisionType === "direct-response").length).toBeGreaterThan(0);
  });

  it("leaves nothing pending, the ledger whole, and every recorded event delivered at least once", async () => {
    await eventually(async () => expect(await stillBusy(query)).toEqual([]), 45_000);
    expect(await ledgerProblems(query)).toEqual([]);
    const { rows: twice } = await db.query(
      "SELECT reference, count(*)::int AS n FROM engine.ledger_movements WHERE kind IN ('capture', 'reversal') GROUP BY kind, reference HAVING count(*) > 1",
    );
    expect(twice).toEqual([]);
    const { rows: closedTwice } = await db.query(
      "SELECT resource_id, count(*)::int AS n FROM dispatcher.events WHERE kind = 'card.authorization.closed' GROUP BY resource_id HAVING count(*) > 1",
    );
    expect(closedTwice).toEqual([]);
    const received = () => receiver.received.map((r) => r.json as ReceivedEnvelope).filter((e) => e?.metadata?.event);
    // Events a killed engine left in its outbox go on events.v1 once the other engine takes the relay's lease (up to
    // 5 s), and a partition the killed dispatcher held waits for its session to run out: an empty outbox does not mean
    // the dispatcher has stored them yet.
    await eventually(async () => expect(await missingFinalEvents(query, received())).toEqual([]), 30_000);
    const envelopes = received();
    expect(reversedBeforeClosed(envelopes)).toEqual([]);
    const perEvent = new Map<string, number>();
    for (const e of envelopes) perEvent.set(e.metadata.event, (perEvent.get(e.metadata.event) ?? 0) + 1);
    const duplicates = [...perEvent.values()].filter((n) => n > 1).reduce((sum, n) => sum + n - 1, 0);
    const { rows: byStatus } = await db.query(
      "SELECT status, count(*)::int AS n FROM engine.authorizations GROUP BY status ORDER BY status",
    );
    report(
      `${perEvent.size} distinct events received, ${duplicates} duplicate deliveries; authorizations: ${JSON.stringify(byStatus)}`,
    );
  });
});
