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
import {
  countByStatus,
  missingFinalEvents,
  paymentMoneyProblems,
  stillBusy,
  type Query,
  type ReceivedEnvelope,
} from "../support/platform-audit";
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

/** Approves every decision at once (checks with a balance and a name) and acknowledges every notification. */
function approveEverything(req: ReceivedRequest): Answer {
  const envelope = req.json as { event?: string; data?: { type?: string; status?: string } } | undefined;
  const decision =
    envelope?.event === "card.authorization.request" ||
    (envelope?.event === "card.authorization.update" && envelope.data?.status === "pending");
  if (!decision) return { status: 200, body: { code: "success" } };
  if (envelope?.data?.type === "check")
    return { status: 200, body: { action: "approve", cardBalance: 1_000_000, cardHolderName: "Crash Test" } };
  return { status: 200, body: { action: "approve" } };
}

// Finds the server's processes through /proc.
describe.skipIf(process.platform !== "linux")(
  "all-in-one: SIGKILLed ten times under load, it restarts and loses nothing",
  () => {
    const receiver = new FakeReceiver();
    const random = seededRandom(SEED);
    let dataDir = "";
    let port = 0;
    let platform: AllInOneProcess | undefined;
    let db: pg.Client | undefined;
    const request = httpJson(
      () => platform!.url,
      () => platform!.testKey,
    );
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
        const stopped = await Promise.race([
          platform.exited.then(() => true),
          new Promise((r) => setTimeout(() => r(false), 15_000)),
        ]);
        if (!stopped) await killAllInOne(platform, dataDir, true);
      }
      // Whatever is left of the server (a failed test may leave a postmaster behind).
      const leftover = dataDir && postmasterPid(dataDir);
      if (leftover) process.kill(leftover, "SIGQUIT");
      for (let i = 0; leftover && !isGone(leftover) && i < 100; i++) await new Promise((r) => setTimeout(r, 50));
      await receiver.stop();
      if (process.env.CRASH_LOG_FILE) {
        const serverLog = join(dataDir, "pg", "server.log");
        writeFileSync(
          process.env.CRASH_LOG_FILE,
          [
            ...logs,
            platform?.output() ?? "",
            "--- server.log ---",
            existsSync(serverLog) ? readFileSync(serverLog, "utf8") : "",
          ].join("\n"),
        );
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
        name: "Ciroma C Adekunle",
        reference: "crash-customer",
        type: "individual",
        verifications: ["tier-2"],
        metadata: { test: "crash" },
        claims: {
          individualInformation: {
            firstName: "Ciroma",
            lastName: "Adekunle",
            email: "ciroma@example.com",
            phoneNumber: "+2349154109234",
            dateOfBirth: "1997-02-13",
            nationalityCode: "NG",
          },
          individualIdentity: { type: "bvn", id: "22489035167", issuingCountry: "NG" },
        },
      });
      const [account] = await ok("GET", "/accounts?filter=currency:NGN");
      await ok("POST", "/simulation/payments/pay-in", {
        accountNumber: account.depositChannels[0].accountNumber,
        amount: 10_000_000_000,
        reference: "crash-pay-in",
      });
      const program = await ok("POST", "/card-programs", {
        name: "Crash NGN",
        network: "verve",
        type: "virtual",
        currency: "NGN",
      });
      const cards: string[] = [];
      for (let n = 1; n <= 4; n++) {
        const card = await ok("POST", "/cards", {
          program: program.id,
          customer: customer.id,
          reference: `crash-card-${n}`,
        });
        const { cvv } = await ok("GET", `/cards/${card.id}/secrets`);
        expect((await ok("POST", `/cards/${card.id}/activate`, { cvv, pin: "1234" })).status).toBe("active");
        cards.push(card.id);
      }
      return { customer: customer.id, cards };
    }

    const rows = async (text: string) => (await db!.query(text)).rows as Array<Record<string, any>>;
    const query: Query = (text) => db!.query(text);
    const received = () => receiver.received.map((r) => r.json as ReceivedEnvelope);

    it(`starts after every SIGKILL, and ends with every authorization final, the ledger whole and every final event delivered`, async () => {
      const began = Date.now();
      const stats = emptyStats();
      const startTimes: number[] = [];
      const approved: LoadContext["approved"] = [];
      let setup: { customer: string; cards: string[] } | undefined;

      for (let cycle = 1; cycle <= CYCLES; cycle++) {
        startTimes.push(await start(`start ${cycle}`));
        setup ??= await setUp();
        const load = startLoad(
          { request, random, cards: setup.cards, customer: setup.customer, approved, label: `s${SEED}-c${cycle}` },
          CONCURRENCY,
        );
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
      if (leftBehind)
        expect(isGone(leftBehind), "the next start stops the postmaster a killed platform left").toBe(true);
      db = new pg.Client({ connectionString: embeddedDatabaseUrl(dataDir) });
      await db.connect();

      const quietSince = Date.now();
      let busy: string[] = [];
      let missing: string[] = [];
      while (Date.now() - quietSince < QUIET_TIMEOUT_MS) {
        busy = await stillBusy(query);
        missing = busy.length ? [] : await missingFinalEvents(query, received());
        if (!busy.length && !missing.length) break;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      const quietMs = Date.now() - quietSince;
      const evidence = () => `${platform!.output()}\n--- server.log ---\n${serverLogTail()}`;
      expect(busy, `still busy after ${quietMs} ms\n${evidence()}`).toEqual([]);
      expect(missing, `final events not delivered\n${evidence()}`).toEqual([]);
      expect(await ledgerProblems((text) => db!.query(text))).toEqual([]);
      expect(await paymentMoneyProblems(query)).toEqual([]);
      expect(stats.errors, stats.errors.join("\n")).toEqual([]);
      expect(stats.timedOut).toBe(0);

      const byStatus = (table: string) => countByStatus(query, table);
      const [lostDecisions] = await rows(
        "SELECT count(*)::int AS n FROM dispatcher.deliveries WHERE policy = 'decision' AND status = 'failed'",
      );
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
  },
);
