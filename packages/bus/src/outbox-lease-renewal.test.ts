import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { pino } from "pino";
import type { Db } from "@cardhold/db";
import type { IncomingMessage } from "./bus";
import { createMemoryBus } from "./memory-bus";
import { createOutboxRelay, enqueue } from "./outbox";
import { useOutboxDatabase } from "./outbox-test-database";

const logger = pino({ level: "silent" });
const LEASE_MS = 60_000;
const database = useOutboxDatabase();
let db: Db;
beforeEach(() => {
  db = database();
  // Only the local clock is moved: timers, the database and its lease run in real time (the lease lasts a minute).
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
});
afterEach(() => {
  vi.useRealTimers();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = async (done: () => boolean, ms = 3_000) => {
  const deadline = performance.now() + ms;
  while (!done() && performance.now() < deadline) await sleep(5);
};

/** The relay's database, whose lease renewals wait at a gate while it is closed. */
function gatedRenewals(inner: Db) {
  let open = true;
  let release = () => undefined as void;
  let gate = Promise.resolve();
  let renewalsAtGate = 0;
  const isRenewal = (text: string) => text.includes("INSERT INTO svc.outbox_relay_lease");
  const query = (async (text: string, values?: unknown[]) => {
    if (isRenewal(text) && !open) {
      renewalsAtGate += 1;
      await gate;
    }
    return inner.query(text, values);
  }) as Db["query"];
  return {
    db: { ...inner, query } as Db,
    close() {
      open = false;
      gate = new Promise<void>((resolve) => (release = resolve));
    },
    open() {
      open = true;
      release();
    },
    renewalsAtGate: () => renewalsAtGate,
  };
}

async function startRelay() {
  const bus = createMemoryBus();
  const got: IncomingMessage[] = [];
  await bus.subscribe({ group: "g", topics: ["things.v1"], handler: async (m) => void got.push(m) });
  const renewals = gatedRenewals(db);
  const relay = createOutboxRelay({ db: renewals.db, schema: "svc", bus, logger, idleMs: 60_000, leaseMs: LEASE_MS });
  relay.start();
  const commit = (id: string) => db.tx((c) => enqueue(c, "svc", [{ topic: "things.v1", key: "k", value: {}, id }]));
  await commit("msg.first"); // the relay takes the lease for this one
  await until(() => got.length === 1);
  return { got, renewals, relay, commit };
}

describe("the outbox relay's lease renewal", () => {
  it("is done beside a step when the lease is nearly due: the step's rows do not wait for it", async () => {
    const { got, renewals, relay, commit } = await startRelay();
    renewals.close();
    // 0.45 of a lease later: still surely held (half a lease), within the tenth of a lease the renewal starts ahead.
    vi.setSystemTime(Date.now() + LEASE_MS * 0.45);
    await commit("msg.while-renewing");
    await until(() => got.length === 2);
    expect(got.map((m) => m.id)).toEqual(["msg.first", "msg.while-renewing"]);
    expect(renewals.renewalsAtGate()).toBe(1); // started, and still waiting at the gate
    // Stopped while that renewal waits: stop hands the lease over only once it has ended, or it would come back.
    const stopped = relay.stop();
    await sleep(100);
    renewals.open();
    await stopped;
    const { rows } = await db.query("SELECT count(*)::int AS n FROM svc.outbox_relay_lease");
    expect(rows[0]?.n).toBe(0);
  });

  it("is waited for once the lease is no longer surely held: nothing is published before it ends", async () => {
    const { got, renewals, relay, commit } = await startRelay();
    renewals.close();
    vi.setSystemTime(Date.now() + LEASE_MS * 0.6);
    await commit("msg.after-renewal");
    await until(() => renewals.renewalsAtGate() === 1);
    await sleep(200);
    expect(got.map((m) => m.id)).toEqual(["msg.first"]);
    renewals.open();
    await until(() => got.length === 2);
    expect(got.map((m) => m.id)).toEqual(["msg.first", "msg.after-renewal"]);
    await relay.stop();
  });

  it("a renewal begun ahead is awaited by the step that needs it, not started twice", async () => {
    const { got, renewals, relay, commit } = await startRelay();
    renewals.close();
    vi.setSystemTime(Date.now() + LEASE_MS * 0.45);
    await commit("msg.ahead");
    await until(() => got.length === 2);
    vi.setSystemTime(Date.now() + LEASE_MS * 0.1); // past the half lease, the renewal still at the gate
    await commit("msg.needs-it");
    await sleep(200);
    expect(got.map((m) => m.id)).toEqual(["msg.first", "msg.ahead"]);
    expect(renewals.renewalsAtGate()).toBe(1);
    renewals.open();
    await until(() => got.length === 3);
    expect(got.at(-1)?.id).toBe("msg.needs-it");
    await relay.stop();
  });
});
