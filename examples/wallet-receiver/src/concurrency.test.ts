import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, closed, deliver, request, SIGNING_KEY, scratchDatabase, uniqueId } from "./test-support/deliveries.js";
import { startWalletReceiver, type WalletReceiver } from "./wallet-receiver.js";

// Many deliveries at once on one wallet. PGlite runs one transaction at a time; on a PostgreSQL server (set
// DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/postgres) the row locks are what keeps the wallet right.
const SERVER_URL = process.env.DATABASE_URL;
const databases = [
  { name: "embedded PGlite", serverUrl: undefined },
  ...(SERVER_URL ? [{ name: "PostgreSQL server", serverUrl: SERVER_URL }] : []),
];

describe.each(databases)("concurrent deliveries on $name", ({ serverUrl }) => {
  let receiver: WalletReceiver;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const scratch = serverUrl ? await scratchDatabase(serverUrl) : undefined;
    drop = scratch?.drop;
    receiver = await startWalletReceiver({ signingKey: SIGNING_KEY, port: 0, databaseUrl: scratch?.url });
  });
  afterAll(async () => {
    await receiver?.stop();
    await drop?.();
  });

  it("many captures at once never overspend: exactly what the balance covers is approved", async () => {
    const api = admin(receiver.url);
    const card = uniqueId("c.");
    const wallet = await api.createWallet({ available: 10_000, cards: [card] });
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => deliver(receiver.webhookUrl, request({ card, amount: 900, fees: 100 }))),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const approved = answers.filter((a) => a.body.action === "approve").length;
    expect(approved).toBe(10);
    expect(answers.filter((a) => a.body.code === "insufficient-funds")).toHaveLength(30);
    expect(await api.wallet(wallet.id)).toMatchObject({ available: 0, locked: 10_000 });
    const liens = (await api.call("GET", `/liens?wallet=${wallet.id}`)).body.data as { locked: number }[];
    expect(liens.reduce((sum, l) => sum + l.locked, 0)).toBe(10_000);
  });

  it("one event delivered many times at once is applied once", async () => {
    const api = admin(receiver.url);
    const card = uniqueId("c.");
    const wallet = await api.createWallet({ available: 10_000, cards: [card] });
    const capture = request({ card, amount: 1_000 });
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(receiver.webhookUrl, capture)));
    expect(answers.map((a) => a.body)).toEqual(Array(10).fill({ action: "approve" }));
    expect(await api.wallet(wallet.id)).toMatchObject({ available: 9_000, locked: 1_000 });
  });

  it("captures, closes and new captures interleaved on one wallet keep available + locked + debited constant", async () => {
    const api = admin(receiver.url);
    const card = uniqueId("c.");
    const wallet = await api.createWallet({ available: 20_000, cards: [card] });
    const ids = Array.from({ length: 10 }, () => uniqueId("c.auth."));
    await Promise.all(ids.map((id) => deliver(receiver.webhookUrl, request({ id, card, amount: 1_500 }))));
    await Promise.all([
      ...ids.map((id, i) =>
        deliver(receiver.webhookUrl, closed({ id, card, status: i % 2 ? "approved" : "declined", amount: 1_500 })),
      ),
      ...Array.from({ length: 10 }, () => deliver(receiver.webhookUrl, request({ card, amount: 1_000 }))),
    ]);
    const after = await api.wallet(wallet.id);
    expect(after.available + after.locked + after.debited).toBe(20_000);
    expect(after.debited).toBe(5 * 1_500);
    expect(after.available).toBeGreaterThanOrEqual(0);
  });
});
