import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  embeddedDatabaseUrl,
  isGone,
  killAllInOne,
  postmasterPid,
  startAllInOneProcess,
  type AllInOneProcess,
} from "../support/all-in-one-process";
import { addStats, emptyStats, httpJson, seededRandom, startLoad, type LoadContext } from "../support/crash-load";
import { FakeReceiver, type Answer, type ReceivedRequest } from "../support/fake-receiver";
import { ledgerProblems } from "../support/ledger-invariants";
import { freePort } from "./support/service-processes";

/**
 * Crash safety of the all-in-one mode (`cardhold dev`: every service in one Node process on the embedded
 * PostgreSQL under DATA_DIR). Ten times: start it as a user does, put mixed load on it (captures, amount updates,
 * reversals, checks, bill payments, deliveries in flight), SIGKILL it — the whole tree (Node and PostgreSQL) on odd
 * cycles, only Node on even ones. Then one last start, and once it is quiet: every authorization and payment is
 * final, the ledger's invariants hold, no payment took money twice, and the receiver got every final-state event at
 * least once. Needs no Kafka and no PostgreSQL server: it runs wherever the integration suite runs.
 *
 * CRASH_SEED fixes the random choices (windows, amounts, numbers; the seed is printed, timing still varies);
 * CRASH_KEEP_DIR=1 keeps DATA_DIR for a look afterwards; CRASH_LOG_FILE=<path> writes every start's output and the
 * server's log there.
 */

const CYCLES = 10;
const CONCURRENCY = 8;
const QUIET_TIMEOUT_MS = 120_000;
const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
/** The schemas of the six services in the all-in-one's one database (each with an outbox). */
const SCHEMAS = ["gateway", "customers", "webhooks", "dispatcher", "engine", "bills"];

/** Approves every decision at once (checks with a balance and a name) and acknowledges every notification. */
function approveEverything(req: ReceivedRequest): Answer {
  const envelope = req.json as { event?: string; data?: { type?: string; status?: string } } | undefined;
  const decision = envelope?.event === "card.authorization.request" || (envelope?.event === "card.authorization.update" && envelope.data?.status === "pending");
  if (!decision) return { status: 200, body: { code: "success" } };
  if (envelope?.data?.type === "check") return { status: 200, body: { action: "approve", cardBalance: 1_000_000, cardHolderName: "Crash Test" } };
  return { status: 200, body: { action: "approve" } };
}

// Finds the server's processes through /proc.
describe.skipIf(process.platform !== "linux")("all-in-one: SIGKILLed ten times under load, it restarts and loses nothing", () => {
  const receiver = new FakeReceiver();
  const random = seededRandom(SEED);
  let dataDir = "";
  let port = 0;
  let platform: AllInOneProcess | undefined;
  let db: pg.Client | undefined;
  const request = httpJson(() => platform!.url, () => platform!.testKey);
  const logs: string[] = [];

  const start = async (label: string) => {
    const begun = Date.now();
    platform = await startAllInOneProcess({
      dataDir,
      port,
      env: { LOG_LEVEL: "warn", OPERATOR_TOKEN: "crash-test-operator-token", DEFAULT_WEBHOOK_URL: receiver.url },
      readyTimeoutMs: 60_000,
    }).catch((error: unknown) => {
      throw new Error(`${label}: ${(error as Error).message}\n--- server.log ---\n${serverLogTail()}`);
    });
    // The lock is this process's: a lock left by the killed one did not stop the start.
    expect(JSON.parse(readFileSync(join(dataDir, "cardhold.lock"), "utf8")).pid).toBe(platform.child.pid);
    return Date.now() - begun;
  };

  const serverLogTail = () => {
    const file = join(dataDir, "pg", "server.log");
    return existsSync(file) ? readFileSync(file, "utf8").trimEnd().split("\n").slice(-40).join("\n") : "(none)";
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "cardhold-crash-"));
    port = await freePort();
    receiver.answerWith(approveEverything);
    await receiver.start("/webhook");
  });

  afterAll(async () => {
    await db?.end().catch(() => undefined);
    if (platform && platform.child.exitCode === null && platform.child.signalCode === null) {
      platform.child.kill("SIGTERM");
      const stopped = await Promise.race([platform.exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 15_000))]);
      if (!stopped) await killAllInOne(platform, dataDir, true);
    }
    // Whatever is left of the server (a failed test may leave a postmaster behind).
    const leftover = dataDir && postmasterPid(dataDir);
    if (leftover) process.kill(leftover, "SIGQUIT");
    for (let i = 0; leftover && !isGone(leftover) && i < 100; i++) await new Promise((r) => setTimeout(r, 50));
    await receiver.stop();
    if (process.env.CRASH_LOG_FILE) {
      const serverLog = join(dataDir, "pg", "server.log");
      writeFileSync(process.env.CRASH_LOG_FILE, [...logs, platform?.output() ?? "", "--- server.log ---", existsSync(serverLog) ? readFileSync(serverLog, "utf8") : ""].join("\n"));
    }
    if (dataDir && !process.env.CRASH_KEEP_DIR) rmSync(dataDir, { recursive: true, force: true });
    else process.stdout.write(`kept ${dataDir}\n`);
  });

  /** A customer, money in the default NGN account, a virtual program and four active cards. */
  async function setUp(): Promise<{ customer: string; cards: string[] }> {
    const ok = async (method: string, path: string, body?: unknown) => {
      const reply = await request(method, path, body);
      expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300);
      return reply.body.data;
    };
    const customer = await ok("POST", "/customers", {
      name: "Ciroma C Adekunle", reference: "crash-customer", type: "individual", verifications: ["tier-2"], metadata: { test: "crash" },
      claims: {
        individualInformation: {
          firstName: "Ciroma", lastName: "Adekunle", email: "ciroma@example.com", phoneNumber: "+2349154109234", dateOfBirth: "1997-02-13",
          nationalityCode: "NG",
        },
        individualIdentity: { type: "bvn", id: "22489035167", issuingCountry: "NG" },
      },
    });
    const [account] = await ok("GET", "/accounts?filter=currency:NGN");
    await ok("POST", "/simulation/payments/pay-in", { accountNumber: account.depositChannels[0].accountNumber, amount: 10_000_000_000, reference: "crash-pay-in" });
    const program = await ok("POST", "/card-programs", { name: "Crash NGN", network: "verve", type: "virtual", currency: "NGN" });
    const cards: string[] = [];
    for (let n = 1; n <= 4; n++) {
      const card = await ok("POST", "/cards", { program: program.id, customer: customer.id, reference: `crash-card-${n}` });
      const { cvv } = await ok("GET", `/cards/${card.id}/secrets`);
      expect((await ok("POST", `/cards/${card.id}/activate`, { cvv, pin: "1234" })).status).toBe("active");
      cards.push(card.id);
    }
    return { customer: customer.id, cards };
  }

  const rows = async (text: string) => (await db!.query(text)).rows as Array<Record<string, any>>;

  /** What still moves: undecided authorizations, unfinished payments, unpublished messages, unfinished deliveries. */
  async function stillBusy(): Promise<string[]> {
    const busy: string[] = [];
    const pending = await rows("SELECT id FROM engine.authorizations WHERE status = 'pending'");
    if (pending.length) busy.push(`${pending.length} authorizations pending: ${pending.map((r) => r.id).join(", ")}`);
    const payments = await rows("SELECT id, status FROM bills.payments WHERE status NOT IN ('successful', 'failed')");
    if (payments.length) busy.push(`${payments.length} payments not final: ${payments.map((r) => `${r.id} ${r.status}`).join(", ")}`);
    for (const schema of SCHEMAS) {
      const [outbox] = await rows(`SELECT count(*)::int AS n FROM ${schema}.outbox`);
      if (outbox!.n) busy.push(`${outbox!.n} unpublished messages in ${schema}.outbox`);
    }
    const [deliveries] = await rows("SELECT count(*)::int AS n FROM dispatcher.deliveries WHERE status IN ('pending', 'delivering')");
    if (deliveries!.n) busy.push(`${deliveries!.n} deliveries not done`);
    return busy;
  }

  const received = () => receiver.received.map((r) => r.json as { event: string; data: Record<string, any>; metadata: { event: string } });

  /** Final authorizations and payments whose final-state event the receiver never got. */
  async function missingFinalEvents(): Promise<string[]> {
    const seen = new Set(received().map((e) => `${e.event} ${e.data?.id} ${e.data?.status} ${e.data?.amount} ${e.data?.fees}`));
    const missing: string[] = [];
    // A check ends without an event (only captures send card.authorization.closed); a reversal ends with an update.
    const captures = await rows("SELECT id, status, amount, fees FROM engine.authorizations WHERE type = 'capture' AND status <> 'pending'");
    for (const a of captures) {
      const kind = a.status === "reversed" ? "card.authorization.update" : "card.authorization.closed";
      if (!seen.has(`${kind} ${a.id} ${a.status} ${a.amount} ${a.fees}`)) missing.push(`${kind} for ${a.id} (${a.status}, ${a.amount} + ${a.fees})`);
    }
    const payments = await rows("SELECT id, status FROM bills.payments WHERE status IN ('successful', 'failed')");
    for (const p of payments) {
      const kind = p.status === "successful" ? "payment.bill.completed" : "payment.bill.failed";
      if (!received().some((e) => e.event === kind && e.data?.id === p.id)) missing.push(`${kind} for ${p.id}`);
    }
    // Every notification the dispatcher recorded reached the receiver. (A decision request in flight when the
    // platform died is not sent again, by design: its answer would come too late, and the deadline decides.)
    const ids = new Set(received().map((e) => e.metadata?.event));
    const events = await rows("SELECT id, kind, resource_id FROM dispatcher.events WHERE policy = 'notification'");
    for (const e of events) if (!ids.has(e.id)) missing.push(`event ${e.id} (${e.kind} of ${e.resource_id}) never received`);
    return missing;
  }

  /** Money per bill payment: a successful one debited amount + fee exactly once, a failed one took nothing in the end. */
  async function paymentMoneyProblems(): Promise<string[]> {
    const payments = await rows(`
      SELECT p.id, p.status, p.failure_reason, (p.amount + p.fee)::bigint AS total,
        (SELECT count(*) FROM engine.ledger_movements m WHERE m.reference = p.id AND m.kind = 'bill-debit')::int AS debits,
        (SELECT count(*) FROM engine.ledger_movements m WHERE m.reference = p.id AND m.kind = 'bill-refund')::int AS refunds,
        (SELECT COALESCE(sum(e.amount), 0) FROM engine.ledger_entries e JOIN engine.accounts a ON a.id = e.account_id
          WHERE e.reference = p.id AND a.role NOT IN ('external', 'network-clearing'))::bigint AS net
      FROM bills.payments p`);
    const problems: string[] = [];
    for (const p of payments) {
      const net = Number(p.net);
      const ok = p.status === "successful" ? p.debits === 1 && p.refunds === 0 && net === -Number(p.total) : p.refunds === p.debits && p.debits <= 1 && net === 0;
      if (!ok) problems.push(`payment ${p.id} ${p.status} (${p.failure_reason}): ${p.debits} debits, ${p.refunds} refunds, net ${net} of ${p.total}`);
    }
    return problems;
  }

  it(`starts after every SIGKILL, and ends with every authorization final, the ledger whole and every final event delivered`, async () => {
    const began = Date.now();
    const stats = emptyStats();
    const startTimes: number[] = [];
    const approved: LoadContext["approved"] = [];
    let setup: { customer: string; cards: string[] } | undefined;

    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      startTimes.push(await start(`start ${cycle}`));
      setup ??= await setUp();
      const load = startLoad({ request, random, cards: setup.cards, customer: setup.customer, approved, label: `s${SEED}-c${cycle}` }, CONCURRENCY);
      await new Promise((resolve) => setTimeout(resolve, 1_500 + Math.floor(random() * 2_500)));
      load.stop();
      const wholeTree = cycle % 2 === 1;
      const postmasterBefore = postmasterPid(dataDir);
      const killed = await killAllInOne(platform!, dataDir, wholeTree);
      logs.push(`--- cycle ${cycle} (${wholeTree ? "tree" : "node only"}) ---\n${platform!.output()}`);
      platform = undefined;
      const cycleStats = await load.finished;
      addStats(stats, cycleStats);
      process.stdout.write(
        `cycle ${cycle}: started in ${startTimes.at(-1)} ms, killed ${wholeTree ? `Node and ${killed.length} PostgreSQL processes` : "Node"}; ` +
          `${cycleStats.sent} requests, ${cycleStats.answered} answered, ${cycleStats.cutOff} cut off (${cycleStats.cut.join(", ")})\n`,
      );
      expect(cycleStats.answered, `cycle ${cycle}: no request was answered`).toBeGreaterThan(0);
      if (wholeTree) expect(killed).toContain(postmasterBefore);
      else expect(postmasterPid(dataDir), "the postmaster outlives a Node-only kill").toBe(postmasterBefore);
    }

    const leftBehind = postmasterPid(dataDir);
    startTimes.push(await start("final start"));
    if (leftBehind) expect(isGone(leftBehind), "the next start stops the postmaster a killed platform left").toBe(true);
    db = new pg.Client({ connectionString: embeddedDatabaseUrl(dataDir) });
    await db.connect();

    const quietSince = Date.now();
    let busy: string[] = [];
    let missing: string[] = [];
    while (Date.now() - quietSince < QUIET_TIMEOUT_MS) {
      busy = await stillBusy();
      missing = busy.length ? [] : await missingFinalEvents();
      if (!busy.length && !missing.length) break;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    const quietMs = Date.now() - quietSince;
    const evidence = () => `${platform!.output()}\n--- server.log ---\n${serverLogTail()}`;
    expect(busy, `still busy after ${quietMs} ms\n${evidence()}`).toEqual([]);
    expect(missing, `final events not delivered\n${evidence()}`).toEqual([]);
    expect(await ledgerProblems((text) => db!.query(text))).toEqual([]);
    expect(await paymentMoneyProblems()).toEqual([]);
    expect(stats.errors, stats.errors.join("\n")).toEqual([]);
    expect(stats.timedOut).toBe(0);

    const byStatus = async (table: string) =>
      Object.fromEntries((await rows(`SELECT status, count(*)::int AS n FROM ${table} GROUP BY status ORDER BY status`)).map((r) => [r.status, r.n]));
    const [lostDecisions] = await rows("SELECT count(*)::int AS n FROM dispatcher.deliveries WHERE policy = 'decision' AND status = 'failed'");
    const envelopes = received().map((e) => e.metadata?.event);
    const distinct = new Set(envelopes).size;
    process.stdout.write(
      `all-in-one crash test (seed ${SEED}): ${CYCLES} cycles in ${Math.round((Date.now() - began) / 1_000)} s ` +
        `(starts ${Math.min(...startTimes)}–${Math.max(...startTimes)} ms, quiet after ${quietMs} ms); ` +
        `requests ${stats.sent} sent, ${stats.answered} answered, ${stats.cutOff} cut off by a kill; ` +
        `authorizations ${JSON.stringify(await byStatus("engine.authorizations"))}; payments ${JSON.stringify(await byStatus("bills.payments"))}; ` +
        `events received ${envelopes.length} (${distinct} distinct, ${envelopes.length - distinct} duplicates; ` +
        `${lostDecisions!.n} decision requests not sent again after a kill)\n` +
        `  outcomes ${JSON.stringify(stats.outcomes)}\n`,
    );
  }, 300_000);
});
