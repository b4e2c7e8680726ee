import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerProblems } from "../../../test/support/ledger-invariants";
import { eventually } from "../../../test/support/eventually";
import { pino } from "pino";
import type { Db } from "@cardhold/db";
import { applyOverdueDefaults } from "../src/authorizations/decisions";
import type { DecisionLateness } from "../src/authorizations/decision-lateness";
import { createTimeoutDefaults } from "../src/authorizations/timeout-defaults";
import {
  balanceOf,
  call,
  eventsOf,
  issueCard,
  newBusiness,
  startEngine,
  type Business,
  type EngineHarness,
} from "./harness";

let h: EngineHarness;
beforeAll(async () => {
  // Requests here start with part of their decision window gone (x-received-at in the past), not to wait 4 s.
  h = await startEngine({ admission: { maxQueuedMs: 10_000 } });
});
afterAll(async () => {
  await h?.stop();
});

const AMOUNT = 1_000;
const FUNDS = 100_000;

/** Sends a request whose answer nobody gives; `windowLeftMs` of its decision window is left when it arrives. */
const ask = (as: Business, cardId: string, type: "capture" | "check", windowLeftMs = 4_000) =>
  call(
    h,
    as,
    "POST",
    `/simulation/cards/${cardId}/request-authorization/${type}`,
    { amount: AMOUNT, channel: "online" },
    { "x-received-at": String(Date.now() - (4_000 - windowLeftMs)) },
  );

/** The ids of a card's authorizations still awaiting an answer, once there are `count` of them. */
async function awaiting(cardId: string, count: number): Promise<string[]> {
  let ids: string[] = [];
  await eventually(async () => {
    const { rows } = await h.pg.db.query<{ id: string }>(
      "SELECT id FROM engine.authorizations WHERE card_id = $1 AND decision_due_at IS NOT NULL ORDER BY id",
      [cardId],
    );
    ids = rows.map((r) => r.id);
    expect(ids).toHaveLength(count);
  });
  return ids;
}

/** Another transaction that locks a funding account for `ms`; resolves once it holds it, with its end (`ended`). */
async function holdAccount(accountId: string, ms: number): Promise<{ ended: Promise<void> }> {
  let holding!: () => void;
  const isHeld = new Promise<void>((resolve) => (holding = resolve));
  const holder = h.pg.db.tx(async (tx) => {
    await tx.query("SELECT 1 FROM engine.accounts WHERE id = $1 FOR UPDATE", [accountId]);
    holding();
    await new Promise((resolve) => setTimeout(resolve, ms));
  });
  await isHeld;
  return { ended: holder };
}

const closedEvents = (id: string) => eventsOf(h, id).filter((e) => e.event === "card.authorization.closed");

describe("timeout defaults applied together", () => {
  it("decide every free authorization in one transaction, across businesses and on shared accounts, exactly", async () => {
    const first = newBusiness();
    const second = newBusiness();
    const declining = await issueCard(h, first, { funds: FUNDS, timeoutDefault: "decline" });
    const approving = await issueCard(h, second, { funds: FUNDS, timeoutDefault: "approve" });
    const replies = [
      ...[1, 2, 3].map(() => ask(first, declining.cardId, "capture")),
      ...[1, 2].map(() => ask(second, approving.cardId, "capture")),
      ask(second, approving.cardId, "check"),
    ];
    const declined = await awaiting(declining.cardId, 3);
    const approved = await awaiting(approving.cardId, 3);

    const applied = await h.pg.db.tx((tx) =>
      applyOverdueDefaults(
        tx,
        [...declined, ...approved].map((id) => ({ id })),
        Date.now(),
      ),
    );

    expect(applied.decided.map((d) => d.row.id).sort()).toEqual([...declined, ...approved].sort());
    expect(applied).toMatchObject({ held: [], standIn: [] });
    const answers = (await Promise.all(replies)).map((r) => r.body.data);
    expect(answers.filter((a) => a.status === "declined")).toHaveLength(3);
    for (const a of answers.filter((x) => x.card === declining.cardId))
      expect(a).toMatchObject({ status: "declined", statusReason: "timeout-error", decisionType: "system-response" });
    for (const a of answers.filter((x) => x.card === approving.cardId))
      expect(a).toMatchObject({ status: "approved", decisionType: "system-response" });
    // The check's default answer reports the balance the captures' holds left, whichever the group decided first.
    const check = answers.find((a) => a.type === "check");
    expect(check).toMatchObject({ cardBalance: FUNDS - 2 * AMOUNT, cardHolderName: "Ada Obi" });
    expect(await balanceOf(h, first, declining.fundingAccount)).toMatchObject({ held: 0, available: FUNDS });
    expect(await balanceOf(h, second, approving.fundingAccount)).toMatchObject({
      held: 0,
      available: FUNDS - 2 * AMOUNT,
    });
    expect(await ledgerProblems((text) => h.pg.db.query(text))).toEqual([]);
    // Every capture closed once (a check has no closed event).
    const captures = [...declined, ...approved].filter((id) => id !== check.id);
    await eventually(() => {
      for (const id of captures) expect(closedEvents(id)).toHaveLength(1);
    });
  });

  it("leave an authorization another transaction holds, and one under stand-in rules, to their own", async () => {
    const as = newBusiness();
    const other = newBusiness(); // a business's cards share its settlement account
    const free = await issueCard(h, as, { funds: FUNDS });
    const heldElsewhere = await issueCard(h, other, { funds: FUNDS });
    const standIn = await issueCard(h, as, {
      funds: FUNDS,
      standIn: { rules: [{ name: "small", approveUpTo: 2_000, perCardDaily: 3_000 }], otherwise: "decline" },
    });
    // Three seconds of window: the waiting requests default what the group leaves.
    const replies = [
      ask(as, free.cardId, "capture", 3_000),
      ask(other, heldElsewhere.cardId, "capture", 3_000),
      ask(as, standIn.cardId, "capture", 3_000),
    ];
    const [freeId] = await awaiting(free.cardId, 1);
    const [heldId] = await awaiting(heldElsewhere.cardId, 1);
    const [standInId] = await awaiting(standIn.cardId, 1);

    // Another transaction holds the second card's authorization (as an answer being applied would) until the group is done.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const isHeld = new Promise<void>((resolve) => (holding = resolve));
    const holder = h.pg.db.tx(async (tx) => {
      await tx.query("SELECT 1 FROM engine.authorizations WHERE id = $1 FOR UPDATE", [heldId]);
      holding();
      await released;
    });
    await isHeld;
    try {
      const started = Date.now();
      const applied = await h.pg.db.tx((tx) =>
        applyOverdueDefaults(
          tx,
          [freeId!, heldId!, standInId!].map((id) => ({ id })),
          Date.now(),
        ),
      );
      expect(Date.now() - started).toBeLessThan(1_000); // it did not wait for the holder
      expect(applied.decided.map((d) => d.row.id)).toEqual([freeId]);
      expect(applied).toMatchObject({ held: [heldId], standIn: [standInId] });
    } finally {
      release();
      await holder;
    }
    const [freeAnswer, heldAnswer, standInAnswer] = (await Promise.all(replies)).map((r) => r.body.data);
    expect(freeAnswer).toMatchObject({ status: "declined", statusReason: "timeout-error" });
    expect(heldAnswer).toMatchObject({ status: "declined", statusReason: "timeout-error" });
    expect(standInAnswer).toMatchObject({ status: "approved", standInRule: "small" });
    expect(await balanceOf(h, other, heldElsewhere.fundingAccount)).toMatchObject({ held: 0, available: FUNDS });
    // The free card and the stand-in one share their business's settlement account; stand-in approved its capture.
    expect(await balanceOf(h, as, free.fundingAccount)).toMatchObject({ held: 0, available: 2 * FUNDS - AMOUNT });
    expect(await ledgerProblems((text) => h.pg.db.query(text))).toEqual([]);
  });

  it("wait for a funding account another transaction holds, then decide", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: FUNDS });
    const reply = ask(as, card.cardId, "capture", 3_000);
    const [id] = await awaiting(card.cardId, 1);
    const { ended: holder } = await holdAccount(card.fundingAccount, 300);
    const started = Date.now();
    const applied = await h.pg.db.tx((tx) => applyOverdueDefaults(tx, [{ id: id! }], Date.now()));
    await holder;
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(applied.decided.map((d) => d.row.id)).toEqual([id]);
    expect((await reply).body.data).toMatchObject({ status: "declined", statusReason: "timeout-error" });
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ held: 0, available: FUNDS });
  });

  it("decide nothing for an authorization already decided, nor for one not yet due by the caller's margin", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: FUNDS });
    const reply = ask(as, card.cardId, "capture", 2_000);
    const [id] = await awaiting(card.cardId, 1);
    const early = await h.pg.db.tx((tx) => applyOverdueDefaults(tx, [{ id: id!, overdueByMs: 0 }], Date.now()));
    expect(early).toEqual({ decided: [], held: [], standIn: [] });
    expect((await reply).body.data).toMatchObject({ status: "declined", statusReason: "timeout-error" });
    const again = await h.pg.db.tx((tx) => applyOverdueDefaults(tx, [{ id: id! }], Date.now()));
    expect(again.decided).toEqual([]);
    await eventually(() => expect(closedEvents(id!)).toHaveLength(1));
  });

  it("go in one transaction when asked while another group's transaction is under way", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: FUNDS });
    const replies = [1, 2, 3, 4, 5, 6].map(() => ask(as, card.cardId, "capture"));
    const ids = await awaiting(card.cardId, 6);
    let transactions = 0;
    const counting = { ...h.pg.db, tx: (fn, opts) => (transactions++, h.pg.db.tx(fn, opts)) } as Db;
    const recorded: string[] = [];
    const lateness: DecisionLateness = { applied: (by, _due, { id }) => void recorded.push(`${by} ${id}`) };
    const defaults = createTimeoutDefaults(counting, lateness, pino({ level: "silent" }));

    const accountId = card.fundingAccount;
    const decided = await Promise.all(
      ids.map((id) => defaults.apply(id, { by: "deadline-sweeper", skipLocked: true, accountId })),
    );

    expect(decided.map((row) => row?.status)).toEqual(ids.map(() => "declined"));
    expect(transactions).toBe(2); // the first alone at once; the five asked meanwhile wait for its account, together
    expect(recorded.sort()).toEqual(ids.map((id) => `deadline-sweeper ${id}`).sort());
    for (const r of await Promise.all(replies)) expect(r.body.data).toMatchObject({ statusReason: "timeout-error" });
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ held: 0, available: FUNDS });
  });

  it("go in a group per funding account: one whose account another transaction holds keeps only its own waiting", async () => {
    const as = newBusiness();
    const other = newBusiness();
    const heldCard = await issueCard(h, as, { funds: FUNDS });
    const freeCard = await issueCard(h, other, { funds: FUNDS });
    const replies = [
      ...[1, 2].map(() => ask(as, heldCard.cardId, "capture", 3_000)),
      ...[1, 2, 3].map(() => ask(other, freeCard.cardId, "capture", 3_000)),
    ];
    const heldIds = await awaiting(heldCard.cardId, 2);
    const freeIds = await awaiting(freeCard.cardId, 3);
    const { ended: holder } = await holdAccount(heldCard.fundingAccount, 1_500);
    const defaults = createTimeoutDefaults(h.pg.db, { applied: () => undefined }, pino({ level: "silent" }));
    const started = Date.now();
    const decidedAfter = (id: string, accountId: string) =>
      defaults.apply(id, { by: "deadline-sweeper", skipLocked: true, accountId }).then(() => Date.now() - started);

    // The held account's two first: with one group for all, or two groups at a time, the free card's waited for them.
    const heldMs = heldIds.map((id) => decidedAfter(id, heldCard.fundingAccount));
    const freeMs = await Promise.all(freeIds.map((id) => decidedAfter(id, freeCard.fundingAccount)));
    for (const ms of freeMs) expect(ms).toBeLessThan(1_000);
    for (const ms of await Promise.all(heldMs)) expect(ms).toBeGreaterThanOrEqual(1_400);
    await holder;
    for (const r of await Promise.all(replies)) expect(r.body.data).toMatchObject({ statusReason: "timeout-error" });
    expect(await balanceOf(h, as, heldCard.fundingAccount)).toMatchObject({ held: 0, available: FUNDS });
    expect(await ledgerProblems((text) => h.pg.db.query(text))).toEqual([]);
  });
});
