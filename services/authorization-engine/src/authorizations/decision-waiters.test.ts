import { describe, expect, it } from "vitest";
import type { Db } from "@cardhold/db";
import type { AuthorizationRow } from "../store/authorizations.store";
import { eventually } from "../../../../test/support/eventually";
import { createDecisionWaiters } from "./decision-waiters";

const scope = { businessId: "bus.1", mode: "test" as const };
const pending = (id: string) =>
  ({
    id,
    business_id: "bus.1",
    mode: "test",
    decision_due_at: new Date(Date.now() + 4_000),
    status: "pending",
  }) as AuthorizationRow;
const decidedRow = (id: string, businessId = "bus.1") =>
  ({ ...pending(id), business_id: businessId, decision_due_at: null, status: "approved" }) as AuthorizationRow;

/** A database holding the rows another engine process decided; it counts the statements it is sent. */
function fakeDb() {
  const decidedElsewhere = new Map<string, AuthorizationRow>();
  const statements: string[] = [];
  /** The ids each poll read. */
  const polled: string[][] = [];
  const db = {
    async query(text: string, params: unknown[]) {
      statements.push(text);
      if (text.includes("ANY($1")) {
        polled.push(params[0] as string[]);
        return { rows: (params[0] as string[]).flatMap((id) => decidedElsewhere.get(id) ?? []) };
      }
      const [id, businessId] = params as [string, string];
      const row = decidedElsewhere.get(id);
      return { rows: [row && row.business_id === businessId ? row : pending(id)] };
    },
  } as unknown as Db;
  return { db, decidedElsewhere, statements, polled };
}

describe("decision waiters", () => {
  it("hands a decision made in this process to its waiter at once, without a read", async () => {
    const { db, statements } = fakeDb();
    const waiters = createDecisionWaiters(db, { pollMs: 1_000 });
    const waiting = waiters.until(scope, pending("auth.1"), 5_000);
    waiters.decided([decidedRow("auth.1")]);
    expect((await waiting).status).toBe("approved");
    expect(statements).toHaveLength(0);
    expect(waiters.waitingCount()).toBe(0);
  });

  it("names the waited-for authorizations falling due within a horizon, and forgets one once decided", async () => {
    const { db } = fakeDb();
    const waiters = createDecisionWaiters(db, { pollMs: 1_000 });
    const dueIn = (id: string, ms: number) =>
      ({ ...pending(id), decision_due_at: new Date(Date.now() + ms) }) as AuthorizationRow;
    const soon = waiters.until(scope, dueIn("auth.soon", 500), 5_000);
    void waiters.until(scope, dueIn("auth.overdue", -100), 5_000);
    void waiters.until(scope, dueIn("auth.later", 3_000), 5_000);
    expect(waiters.dueWithin(1_000).sort()).toEqual(["auth.overdue", "auth.soon"]);
    waiters.decided([decidedRow("auth.soon")]);
    await soon;
    expect(waiters.dueWithin(1_000)).toEqual(["auth.overdue"]);
    waiters.decided([decidedRow("auth.overdue"), decidedRow("auth.later")]);
    expect(waiters.dueWithin(10_000)).toEqual([]);
  });

  it("answers at once when nothing is asked", async () => {
    const { db, statements } = fakeDb();
    expect(await createDecisionWaiters(db).until(scope, decidedRow("auth.2"), 5_000)).toMatchObject({
      status: "approved",
    });
    expect(statements).toHaveLength(0);
  });

  it("sees decisions of another engine process with one statement per poll, however many requests wait", async () => {
    const { db, decidedElsewhere, statements } = fakeDb();
    const waiters = createDecisionWaiters(db, { pollMs: 50 });
    const all = Array.from({ length: 500 }, (_, i) => waiters.until(scope, pending(`auth.${i}`), 10_000));
    await new Promise((r) => setTimeout(r, 180));
    const polls = statements.length;
    expect(polls).toBeGreaterThanOrEqual(2);
    expect(polls).toBeLessThanOrEqual(4);
    for (let i = 0; i < 500; i++) decidedElsewhere.set(`auth.${i}`, decidedRow(`auth.${i}`));
    const rows = await Promise.all(all);
    expect(rows.every((r) => r.status === "approved")).toBe(true);
    expect(statements.length).toBeLessThanOrEqual(polls + 2);
    expect(waiters.waitingCount()).toBe(0);
  });

  it("leaves a request waiting less than half the poll interval to the next poll", async () => {
    const { db, decidedElsewhere, polled } = fakeDb();
    const waiters = createDecisionWaiters(db, { pollMs: 1_000 });
    const older = waiters.until(scope, pending("auth.older"), 10_000);
    await new Promise((r) => setTimeout(r, 700));
    // 300 ms old when the poll is due: left out even if the poll's timer fires up to 200 ms late.
    const newer = waiters.until(scope, pending("auth.newer"), 10_000);
    await eventually(() => expect(polled).toHaveLength(1));
    expect(polled).toEqual([["auth.older"]]);
    decidedElsewhere.set("auth.older", decidedRow("auth.older"));
    decidedElsewhere.set("auth.newer", decidedRow("auth.newer"));
    expect((await older).status).toBe("approved");
    expect((await newer).status).toBe("approved");
    expect(polled[1]).toEqual(["auth.older", "auth.newer"]);
  });

  it("never hands a waiter a row of another business, and reads the row as it stands at its deadline", async () => {
    const { db, decidedElsewhere } = fakeDb();
    const waiters = createDecisionWaiters(db, { pollMs: 20 });
    const waiting = waiters.until(scope, pending("auth.x"), 150);
    waiters.decided([decidedRow("auth.x", "bus.other")]);
    decidedElsewhere.set("auth.x", decidedRow("auth.x", "bus.other"));
    const started = Date.now();
    const row = await waiting;
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    expect(row).toMatchObject({ business_id: "bus.1", status: "pending" });
    expect(waiters.waitingCount()).toBe(0);
  });

  it("applies the timeout default itself when still waiting at the deadline plus the grace, without waiting for a poll", async () => {
    const { db, statements } = fakeDb();
    const applied: string[] = [];
    const applyDefault = async ({ id }: AuthorizationRow) => {
      applied.push(id);
      return { ...decidedRow(id), status: "declined" } as AuthorizationRow;
    };
    const waiters = createDecisionWaiters(db, { pollMs: 60_000, graceMs: 30, applyDefault });
    const started = Date.now();
    const row = await waiters.until(scope, { ...pending("auth.d"), decision_due_at: new Date(started + 50) }, 10_000);
    expect(row.status).toBe("declined");
    expect(Date.now() - started).toBeGreaterThanOrEqual(75);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(applied).toEqual(["auth.d"]);
    expect(statements).toHaveLength(0);
  });

  it("hands over the decision another process applied first when its own default finds the authorization decided", async () => {
    const { db, decidedElsewhere } = fakeDb();
    decidedElsewhere.set("auth.e", decidedRow("auth.e"));
    const waiters = createDecisionWaiters(db, { pollMs: 60_000, graceMs: 0, applyDefault: async () => undefined });
    const row = await waiters.until(
      scope,
      { ...pending("auth.e"), decision_due_at: new Date(Date.now() + 20) },
      10_000,
    );
    expect(row.status).toBe("approved");
    expect(waiters.waitingCount()).toBe(0);
  });

  it("keeps waiting (for the sweeper or the poll) when applying the default fails", async () => {
    const { db, decidedElsewhere } = fakeDb();
    const waiters = createDecisionWaiters(db, {
      pollMs: 100,
      graceMs: 0,
      applyDefault: () => Promise.reject(new Error("connection lost")),
    });
    const waiting = waiters.until(scope, { ...pending("auth.f"), decision_due_at: new Date(Date.now() + 10) }, 10_000);
    await new Promise((r) => setTimeout(r, 50));
    decidedElsewhere.set("auth.f", decidedRow("auth.f"));
    expect((await waiting).status).toBe("approved");
  });
});
