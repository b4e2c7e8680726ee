import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  answerDecision,
  call,
  issueCard,
  newBusiness,
  nextEvent,
  startEngine,
  type Business,
  type EngineHarness,
  type IssuedCard,
  type Reply,
} from "./harness";

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngine();
});
afterAll(async () => {
  await h?.stop();
});

/** How long the receiver takes to answer every decision event here. */
const ANSWER_DELAY_MS = 150;
const seen = new Set<string>();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const simulate = (as: Business, card: IssuedCard, kind: string, body: Record<string, unknown>) =>
  call(h, as, "POST", `/simulation/cards/${card.cardId}/request-authorization/${kind}`, body);

/** A capture whose decision event the receiver answers with `answer` after ANSWER_DELAY_MS. */
async function capture(
  as: Business,
  card: IssuedCard,
  amount: number,
  answer: Parameters<typeof answerDecision>[3],
): Promise<Reply> {
  const reply = simulate(as, card, "capture", { amount, channel: "online" });
  const question = await nextEvent(
    h,
    seen,
    (e) => e.event === "card.authorization.request" && (e.data as { card?: string }).card === card.cardId,
  );
  await sleep(ANSWER_DELAY_MS);
  await answerDecision(h, as, question, answer);
  return reply;
}

const stats = (as: Business, query = "") => call(h, as, "GET", `/card-authorizations/stats${query}`);

/** percentile_disc as PostgreSQL computes it: the first value whose cumulative share reaches p. */
const percentile = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;

interface Bucket {
  start: string;
  count: number;
  approved: number;
  declined: number;
  declinedByReason: Record<string, number>;
}

describe("GET /card-authorizations/stats", () => {
  const as = newBusiness();
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const card = await issueCard(h, as, { funds: 20_000 });
    const approve = { body: { action: "approve" } };
    ids.approved = (await capture(as, card, 1_000, approve)).body.data.id;
    ids.reversed = (await capture(as, card, 2_000, approve)).body.data.id;
    await sleep(20);
    const reversal = await simulate(as, card, "reverse-capture", { authorization: ids.reversed, channel: "online" });
    expect(reversal.body.data.status).toBe("reversed");
    const declined = await capture(as, card, 1_000, { body: { action: "decline", code: "account-inactive" } });
    ids.declinedByReceiver = declined.body.data.id;
    ids.timedOut = (await capture(as, card, 1_000, { error: "timeout" })).body.data.id;
    // Declined by the pre-checks: decided as it is created, the receiver is never asked.
    const tooMuch = await simulate(as, card, "capture", { amount: 50_000, channel: "online" });
    expect(tooMuch.body.data).toMatchObject({ status: "declined", declineReason: "insufficient-funds" });
    ids.declinedByService = tooMuch.body.data.id;
  });

  it("counts the hour's authorizations per minute: approved (reversed included), declined by reason", async () => {
    const reply = await stats(as, "?window=hour");
    expect(reply.status).toBe(200);
    const data = reply.body.data;
    expect(data).toMatchObject({ window: "hour", bucketSeconds: 60 });
    expect(data.totals).toMatchObject({ count: 5, approved: 2, declined: 3 });
    expect(data.totals.declinedByReason).toEqual({
      "account-inactive": 1,
      "timeout-error": 1,
      "insufficient-funds": 1,
    });
    const buckets = data.buckets as Bucket[];
    expect(buckets).toHaveLength(60);
    const starts = buckets.map((b) => Date.parse(b.start));
    expect(starts.every((s, i) => i === 0 || s - starts[i - 1]! === 60_000)).toBe(true);
    expect(starts.every((s) => s % 60_000 === 0)).toBe(true);
    expect(Date.now() - starts.at(-1)!).toBeLessThan(60_000);
    const sum = (pick: (b: Bucket) => number) => buckets.reduce((n, b) => n + pick(b), 0);
    expect([sum((b) => b.count), sum((b) => b.approved), sum((b) => b.declined)]).toEqual([5, 2, 3]);
    // Each authorization is counted in the minute it was created in.
    for (const id of Object.values(ids)) {
      const created = Date.parse((await call(h, as, "GET", `/card-authorizations/${id}`)).body.data.createdAt);
      const bucket = buckets.find((b) => Date.parse(b.start) <= created && created < Date.parse(b.start) + 60_000);
      expect(bucket?.count, id).toBeGreaterThan(0);
    }
  });

  it("measures decision latency from creation to the first decision: the receiver's delay, not the reversal", async () => {
    const { rows } = await h.pg.db.query<{ id: string; ms: number; moved_since: boolean }>(
      `SELECT id, (extract(epoch FROM decided_at - created_at) * 1000)::float8 AS ms,
              updated_at > decided_at AS moved_since
         FROM engine.authorizations WHERE business_id = $1 AND mode = 'test'`,
      [as.businessId],
    );
    const latency = Object.fromEntries(rows.map((r) => [r.id, r.ms]));
    for (const asked of ["approved", "reversed", "declinedByReceiver", "timedOut"])
      expect(latency[ids[asked]!], asked).toBeGreaterThanOrEqual(ANSWER_DELAY_MS);
    expect(latency[ids.declinedByService!]).toBeLessThan(ANSWER_DELAY_MS);
    // The reversal changed the reversed one later: its decision time stayed the approval's.
    const movedSince = rows.filter((r) => r.moved_since).map((r) => r.id);
    expect(movedSince).toEqual([ids.reversed]);
    const sorted = rows.map((r) => r.ms).sort((a, b) => a - b);
    const { totals } = (await stats(as)).body.data;
    expect(totals.decisionLatencyP50Ms).toBe(percentile(sorted, 0.5));
    expect(totals.decisionLatencyP99Ms).toBe(percentile(sorted, 0.99));
    expect(totals.decisionLatencyP50Ms).toBeGreaterThanOrEqual(ANSWER_DELAY_MS);
  });

  it("the day in 96 fifteen-minute buckets, with the same totals", async () => {
    const hour = (await stats(as, "?window=hour")).body.data;
    const day = await stats(as, "?window=day");
    expect(day.status).toBe(200);
    expect(day.body.data).toMatchObject({ window: "day", bucketSeconds: 900 });
    expect(day.body.data.buckets).toHaveLength(96);
    expect(Date.parse(day.body.data.buckets[0].start) % 900_000).toBe(0);
    expect(day.body.data.totals).toEqual(hour.totals);
  });

  it("the window defaults to the hour; any other is a 400 naming it", async () => {
    expect((await stats(as)).body.data.window).toBe("hour");
    for (const query of ["?window=week", "?window=", "?window=hour&window=day"]) {
      const reply = await stats(as, query);
      expect(reply.status, query).toBe(400);
      expect(reply.body.errors, query).toEqual([expect.objectContaining({ path: "window" })]);
    }
  });

  it("another business, and the same business's live mode, see none of it", async () => {
    for (const other of [newBusiness(), { ...as, mode: "live" as const }]) {
      const { totals, buckets } = (await stats(other, "?window=day")).body.data;
      expect(totals).toEqual({
        count: 0,
        approved: 0,
        declined: 0,
        declinedByReason: {},
        decisionLatencyP50Ms: null,
        decisionLatencyP99Ms: null,
      });
      expect((buckets as Bucket[]).every((b) => b.count === 0)).toBe(true);
    }
  });
});

describe("an authorization's ledger entries: GET /accounts/:id/logs?filter=reference:<authorization id>", () => {
  it("selects that authorization's entries on the account (its capture and reversal), nothing else", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 20_000 });
    const approve = { body: { action: "approve" } };
    const first = (await capture(as, card, 3_000, approve)).body.data.id as string;
    const second = (await capture(as, card, 1_000, approve)).body.data.id as string;
    await simulate(as, card, "reverse-capture", { authorization: first, channel: "online" });
    const logs = (filter: string) =>
      call(h, as, "GET", `/accounts/${card.settlementAccount}/logs?filter=${encodeURIComponent(filter)}`);
    const all = await logs("");
    expect(all.body.data.length).toBeGreaterThan(3);
    const mine = await logs(`reference:${first}`);
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((e: { kind: string; amount: number }) => [e.kind, e.amount])).toEqual([
      ["reversal", 3_000],
      ["capture", -3_000],
    ]);
    expect(mine.body.data.every((e: { reference: string }) => e.reference === first)).toBe(true);
    expect((await logs(`reference:${second}`)).body.data).toHaveLength(1);
    // Another business naming the same account and authorization sees nothing.
    expect((await call(h, newBusiness(), "GET", `/accounts/${card.settlementAccount}/logs`)).status).toBe(404);
  });
});
