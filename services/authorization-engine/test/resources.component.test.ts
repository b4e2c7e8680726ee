import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually";
import { passesLuhn } from "../src/domain/card-number";
import { ledgerProblems } from "../../../test/support/ledger-invariants";
import {
  announceCustomer,
  announceWebhook,
  balanceOf,
  call,
  INTERNAL,
  issueCard,
  newBusiness,
  startEngine,
  type EngineHarness,
} from "./harness";

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngine();
});
afterAll(async () => {
  await h?.stop();
});

const program = { name: "Virtual NGN", network: "verve", type: "virtual", currency: "NGN" };

describe("card programs", () => {
  it("a virtual program is live at once and spends from the business's settlement account by default", async () => {
    const as = newBusiness();
    const created = await call(h, as, "POST", "/card-programs", { ...program, metadata: { team: "cards" } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      object: "card.program",
      status: "live",
      network: "verve",
      currency: "NGN",
      authorization: {
        fundingSourceType: "settlement-account",
        transactionFee: 0,
        settlementAccount: expect.stringMatching(/^ac\./),
      },
    });
    const settlement = await call(h, as, "GET", `/accounts/${created.body.data.authorization.settlementAccount}`);
    expect(settlement.body.data).toMatchObject({ type: "main", currency: "NGN", isDefault: true });
    expect((await call(h, as, "PUT", `/card-programs/${created.body.data.id}`, program)).status).toBe(422);
  });

  it("a physical program is new until it goes live (simulation), and can be changed until then", async () => {
    const as = newBusiness();
    const created = await call(h, as, "POST", "/card-programs", { ...program, type: "physical", quantity: 500 });
    expect(created.body.data.status).toBe("new");
    const changed = await call(h, as, "PUT", `/card-programs/${created.body.data.id}`, {
      ...program,
      type: "physical",
      quantity: 800,
      name: "Physical",
    });
    expect(changed.body.data).toMatchObject({ name: "Physical", quantity: 800, status: "new" });
    const customer = await announceCustomer(h, as);
    expect(
      (await call(h, as, "POST", "/cards", { program: created.body.data.id, customer, reference: "early" })).status,
    ).toBe(422);
    expect(
      (await call(h, as, "POST", `/simulation/card-programs/${created.body.data.id}/go-live`, {})).body.data.status,
    ).toBe("live");
    expect(
      (await call(h, as, "POST", "/cards", { program: created.body.data.id, customer, reference: "on-time" })).status,
    ).toBe(201);
  });

  it("refuses bad bodies field by field, unknown webhooks and settlement accounts, and other businesses' programs", async () => {
    const as = newBusiness();
    const bad = await call(h, as, "POST", "/card-programs", {
      name: "",
      network: "visa",
      type: "virtual",
      currency: "EUR",
      quantity: 5,
      authorization: { transactionFee: -1, timeoutDefault: "maybe" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      "authorization.timeoutDefault",
      "authorization.transactionFee",
      "currency",
      "name",
      "network",
    ]);
    expect(
      (await call(h, as, "POST", "/card-programs", { ...program, authorization: { webhook: "wh.11111111111111111" } }))
        .status,
    ).toBe(404);
    expect(
      (
        await call(h, as, "POST", "/card-programs", {
          ...program,
          authorization: { settlementAccount: "ac.11111111111111111" },
        })
      ).status,
    ).toBe(404);
    const hook = await announceWebhook(h, as, {
      isDefault: false,
      events: ["card.authorization.request"],
      timeoutDefault: "approve",
    });
    const mine = await call(h, as, "POST", "/card-programs", { ...program, authorization: { webhook: hook } });
    expect(mine.body.data.authorization.webhook).toBe(hook);
    expect((await call(h, newBusiness(), "GET", `/card-programs/${mine.body.data.id}`)).status).toBe(404);
    expect((await call(h, as, "GET", "/card-programs?filter=status:live&countTotal")).body.metadata.totalCount).toBe(1);
  });
});

describe("cards", () => {
  it("issues an inactive card with a Luhn-valid PAN; only /secrets shows PAN and CVV, and they are sealed at rest", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { activate: false });
    const record = (await call(h, as, "GET", `/cards/${card.cardId}`)).body.data;
    expect(record).toMatchObject({
      object: "card",
      status: "inactive",
      network: "verve",
      details: { cardHolderName: "Ada Obi", expiry: expect.stringMatching(/^\d{2}\/\d{2}$/) },
    });
    const secrets = (await call(h, as, "GET", `/cards/${card.cardId}/secrets`)).body.data;
    // No field named for them, nor their values (a random id may hold the letters "pan" by chance).
    expect(JSON.stringify(record)).not.toMatch(/"[^"]*(pan|cvv)[^"]*":/i);
    expect(JSON.stringify(record)).not.toContain(secrets.pan);
    expect(passesLuhn(secrets.pan)).toBe(true);
    expect(secrets.pan.endsWith(record.details.last4)).toBe(true);
    const { rows } = await h.pg.db.query("SELECT pan_encrypted, cvv_encrypted FROM engine.cards WHERE id = $1", [
      card.cardId,
    ]);
    expect(JSON.stringify(rows)).not.toContain(secrets.pan);
    expect(rows[0]!.cvv_encrypted).not.toContain(secrets.cvv);
  });

  it("activates only with the right CVV, then blocks, unblocks and terminates for good", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { activate: false });
    const { cvv } = (await call(h, as, "GET", `/cards/${card.cardId}/secrets`)).body.data;
    const wrong = await call(h, as, "POST", `/cards/${card.cardId}/activate`, {
      cvv: cvv === "000" ? "001" : "000",
      pin: "1234",
    });
    expect(wrong).toMatchObject({ status: 400, body: { errors: [{ path: "cvv" }] } });
    expect((await call(h, as, "POST", `/cards/${card.cardId}/activate`, { cvv, pin: "12345" })).status).toBe(400);
    expect((await call(h, as, "POST", `/cards/${card.cardId}/activate`, { cvv, pin: "1234" })).body.data.status).toBe(
      "active",
    );
    expect((await call(h, as, "POST", `/cards/${card.cardId}/activate`, { cvv, pin: "1234" })).status).toBe(422);
    expect((await call(h, as, "POST", `/cards/${card.cardId}/reset-pin`, { pin: "4321" })).status).toBe(200);
    expect((await call(h, as, "POST", `/cards/${card.cardId}/block`, {})).body.data.status).toBe("blocked");
    expect((await call(h, as, "POST", `/cards/${card.cardId}/unblock`, {})).body.data.status).toBe("active");
    expect((await call(h, as, "DELETE", `/cards/${card.cardId}`)).body.data.status).toBe("terminated");
    const after = await call(h, as, "POST", `/cards/${card.cardId}/unblock`, {});
    expect(after).toMatchObject({ status: 422, body: { message: expect.stringContaining("terminated") } });
    expect((await call(h, as, "PUT", `/cards/${card.cardId}`, { metadata: {} })).status).toBe(422);
  });

  it("replaces controls and metadata whole, and validates them", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { controls: { blockedChannels: ["atm"] } });
    const updated = await call(h, as, "PUT", `/cards/${card.cardId}`, {
      controls: { allowedMcc: "5411-5499, 5812" },
      metadata: { nickname: "groceries" },
    });
    expect(updated.body.data).toMatchObject({
      controls: { allowedMcc: ["5411-5499, 5812"] },
      metadata: { nickname: "groceries" },
    });
    expect(updated.body.data.controls.blockedChannels).toBeUndefined();
    const bad = await call(h, as, "PUT", `/cards/${card.cardId}`, {
      controls: {
        allowedMcc: "5499-5411",
        allowedCategories: ["casinos"],
        spendingLimits: [{ amount: 0, interval: "hourly" }],
      },
    });
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      "controls.allowedCategories[0]",
      "controls.allowedMcc",
      "controls.spendingLimits[0].amount",
      "controls.spendingLimits[0].interval",
    ]);
    expect((await call(h, as, "PUT", `/cards/${card.cardId}`, {})).status).toBe(400);
  });

  it("refuses an unknown customer or program and a reused reference", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as);
    const record = (await call(h, as, "GET", `/cards/${card.cardId}`)).body.data;
    expect(
      (
        await call(h, as, "POST", "/cards", {
          program: card.programId,
          customer: card.customerId,
          reference: record.reference,
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await call(h, as, "POST", "/cards", {
          program: "c.prg.11111111111111111",
          customer: card.customerId,
          reference: "x",
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call(h, as, "POST", "/cards", {
          program: card.programId,
          customer: "cus.11111111111111111",
          reference: "y",
        })
      ).status,
    ).toBe(404);
  });

  it("a card-account card has its own account: funded at issue and by /fund, never beyond the source's balance", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { fundingSourceType: "card-account", funds: 30_000 });
    expect(card.fundingAccount).not.toBe(card.settlementAccount);
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 30_000 });
    expect((await call(h, as, "GET", `/cards/${card.cardId}/funding-source`)).body.data).toMatchObject({
      id: card.fundingAccount,
      type: "sub",
      customer: card.customerId,
    });
    await call(h, as, "POST", "/simulation/payments/pay-in", {
      accountNumber: await numberOf(as, card.settlementAccount),
      amount: 5_000,
    });
    const funded = await call(h, as, "POST", `/cards/${card.cardId}/fund`, {
      amount: 5_000,
      debitSource: card.settlementAccount,
    });
    expect(funded.body.data).toMatchObject({ available: 35_000, ledger: 35_000 });
    const over = await call(h, as, "POST", `/cards/${card.cardId}/fund`, {
      amount: 1,
      debitSource: card.settlementAccount,
    });
    expect(over).toMatchObject({ status: 422, body: { code: "insufficient-funds" } });
    expect((await call(h, as, "GET", `/cards/${card.cardId}/funding-source/balance`)).body.data.available).toBe(35_000);
  });
});

async function numberOf(as: ReturnType<typeof newBusiness>, accountId: string): Promise<string> {
  return (await call(h, as, "GET", `/accounts/${accountId}`)).body.data.depositChannels[0].accountNumber;
}

describe("accounts and pay-ins", () => {
  it("refuses money beyond the balance limit with 422, and the account and its list keep answering", async () => {
    const as = newBusiness();
    const main = await call(h, as, "POST", "/accounts", {
      name: "Big",
      currency: "USD",
      type: "main",
      depositChannels: ["bank-account"],
      reference: "big",
    });
    const accountNumber = main.body.data.depositChannels[0].accountNumber;
    const answers = [];
    for (let i = 0; i < 10; i++)
      answers.push(
        (
          await call(h, as, "POST", "/simulation/payments/pay-in", {
            accountNumber,
            amount: 10 ** 15,
            reference: `big-${i}`,
          })
        ).status,
      );
    expect(answers).toEqual([200, ...Array(9).fill(422)]);
    expect(await balanceOf(h, as, main.body.data.id)).toMatchObject({ available: 10 ** 15 });
    expect((await call(h, as, "GET", "/accounts")).status).toBe(200);
    const over = await call(h, as, "POST", "/simulation/payments/pay-in", {
      accountNumber,
      amount: 10 ** 15 + 1,
      reference: "over",
    });
    expect(over.status).toBe(400);
  });

  it("opens main, sub and virtual accounts; a pay-in to a virtual account lands in its settlement account", async () => {
    const as = newBusiness();
    const customer = await announceCustomer(h, as);
    const main = await call(h, as, "POST", "/accounts", {
      name: "Ops",
      currency: "USD",
      type: "main",
      depositChannels: ["bank-account"],
      reference: "ops",
    });
    expect(main.status).toBe(201);
    expect(main.body.data.depositChannels[0]).toMatchObject({
      type: "bank-account",
      accountNumber: expect.stringMatching(/^\d{10}$/),
      accountName: "Ops",
    });
    const virtual = await call(h, as, "POST", "/accounts", {
      name: "Ada's virtual",
      currency: "USD",
      type: "virtual",
      customer,
      settlementAccount: main.body.data.id,
      depositChannels: ["bank-account"],
    });
    expect(virtual.body.data).toMatchObject({ type: "virtual", settlementAccount: main.body.data.id, customer });
    const paid = await call(h, as, "POST", "/simulation/payments/pay-in", {
      accountNumber: virtual.body.data.depositChannels[0].accountNumber,
      amount: 2_500,
      reference: "wire-1",
    });
    expect(paid.body.data).toMatchObject({ id: main.body.data.id, balance: { available: 2_500, ledger: 2_500 } });
    await call(h, as, "POST", "/simulation/payments/pay-in", {
      accountNumber: virtual.body.data.depositChannels[0].accountNumber,
      amount: 2_500,
      reference: "wire-1",
    });
    expect(await balanceOf(h, as, main.body.data.id)).toMatchObject({ available: 2_500 });
    expect(await balanceOf(h, as, virtual.body.data.id)).toMatchObject({ available: 0 });
    const logs = await call(h, as, "GET", `/accounts/${main.body.data.id}/logs`);
    expect(logs.body.data).toEqual([
      expect.objectContaining({
        kind: "pay-in",
        type: "credit",
        amount: 2_500,
        balanceAfter: 2_500,
        account: main.body.data.id,
      }),
    ]);
    const csv = await fetch(`${h.url}/accounts/${main.body.data.id}/logs/csv`, {
      headers: { "x-internal-token": INTERNAL, "x-business-id": as.businessId, "x-mode": as.mode },
    });
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect((await csv.text()).trim().split("\n")).toEqual([
      "id,createdAt,type,kind,amount,balanceAfter,currency,reference,description,movement",
      expect.stringMatching(
        /^le\.\w+,[\d-]+T[\d:.]+Z,credit,pay-in,2500,2500,USD,wire-1,bank-transfer to \d{10},mv\.\w+$/,
      ),
    ]);
  });

  it("validates accounts, keeps references unique, and lists with expand", async () => {
    const as = newBusiness();
    const customer = await announceCustomer(h, as, "Bola Ade");
    const bad = await call(h, as, "POST", "/accounts", { name: "", currency: "GBP", type: "joint" });
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["currency", "name", "type"]);
    const settlementOnMain = await call(h, as, "POST", "/accounts", {
      name: "x",
      currency: "NGN",
      type: "main",
      settlementAccount: "ac.11111111111111111",
    });
    expect(settlementOnMain.body.errors).toEqual([
      { path: "settlementAccount", message: "only a virtual account has a settlement account" },
    ]);
    expect(
      (await call(h, as, "POST", "/accounts", { name: "A", currency: "NGN", type: "sub", reference: "r1", customer }))
        .status,
    ).toBe(201);
    expect(
      (await call(h, as, "POST", "/accounts", { name: "B", currency: "NGN", type: "sub", reference: "r1" })).status,
    ).toBe(409);
    expect(
      (
        await call(h, as, "POST", "/accounts", {
          name: "C",
          currency: "NGN",
          type: "sub",
          customer: "cus.11111111111111111",
        })
      ).status,
    ).toBe(404);
    const listed = await call(h, as, "GET", "/accounts?filter=reference:r1&expand=customer");
    expect(listed.body.data).toEqual([
      expect.objectContaining({
        name: "A",
        customer: expect.objectContaining({ id: customer, name: "Bola Ade", object: "customer" }),
      }),
    ]);
    expect(
      (await call(h, as, "POST", "/simulation/payments/pay-in", { accountNumber: "0000000000", amount: 5 })).status,
    ).toBe(404);
    expect(
      (await call(h, as, "POST", "/simulation/payments/pay-in", { accountNumber: "12", amount: 0 })).body.errors,
    ).toHaveLength(2);
  });
});

describe("ledger commands from the bill-service", () => {
  const command = (as: ReturnType<typeof newBusiness>, data: Record<string, unknown>, type = "ledger.debit") => ({
    topic: "ledger-commands.v1",
    key: String(data.reference),
    id: `msg.${String(data.commandId)}`,
    value: { type, businessId: as.businessId, mode: as.mode, occurredAt: new Date().toISOString(), data },
  });
  /** The results published for a command so far, once there are `count` of them (they leave through the outbox). */
  const resultOf = (commandId: string, count = 1) =>
    eventually(() => {
      const results = h.ledgerResults.filter((r) => r.commandId === commandId);
      expect(results.length).toBeGreaterThanOrEqual(count);
      return results;
    }, 5_000);

  it("debits once per command id, refunds once per debit, and fails cleanly", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 10_000 });
    const debit = {
      commandId: "p.1:debit",
      account: null,
      currency: "NGN",
      amount: 4_000,
      reference: "p.1",
      description: "airtime",
    };
    await h.bus.publish([command(as, debit)]);
    await h.bus.publish([{ ...command(as, debit), id: "msg.p.1:debit:again" }]);
    const [first, second] = await resultOf("p.1:debit", 2);
    expect(second).toEqual(first);
    expect(first).toMatchObject({ status: "succeeded", account: card.settlementAccount, availableAfter: 6_000 });
    const refund = {
      commandId: "p.1:refund",
      debitCommandId: "p.1:debit",
      reference: "p.1",
      description: "biller failed",
    };
    await h.bus.publish([command(as, refund, "ledger.refund")]);
    await h.bus.publish([command(as, { ...refund, commandId: "p.1:refund-2" }, "ledger.refund")]);
    expect((await resultOf("p.1:refund"))[0]).toMatchObject({
      status: "succeeded",
      amount: 4_000,
      availableAfter: 10_000,
    });
    expect((await resultOf("p.1:refund-2"))[0]).toMatchObject({ status: "failed", failureReason: "already-refunded" });
    await h.bus.publish([command(as, { ...debit, commandId: "p.2:debit", reference: "p.2", amount: 10_001 })]);
    expect((await resultOf("p.2:debit"))[0]).toMatchObject({ status: "failed", failureReason: "insufficient-funds" });
    await h.bus.publish([
      command(as, { ...debit, commandId: "p.3:debit", reference: "p.3", account: "ac.11111111111111111" }),
    ]);
    expect((await resultOf("p.3:debit"))[0]).toMatchObject({ status: "failed", failureReason: "account-not-found" });
    await h.bus.publish([
      command(as, {
        ...debit,
        commandId: "p.4:debit",
        reference: "p.4",
        currency: "USD",
        account: card.settlementAccount,
      }),
    ]);
    expect((await resultOf("p.4:debit"))[0]).toMatchObject({ status: "failed", failureReason: "currency-mismatch" });
    await h.bus.publish([
      command(as, { ...refund, commandId: "p.5:refund", debitCommandId: "p.2:debit" }, "ledger.refund"),
    ]);
    expect((await resultOf("p.5:refund"))[0]).toMatchObject({ status: "failed", failureReason: "debit-not-found" });
    expect(await balanceOf(h, as, card.settlementAccount)).toMatchObject({ available: 10_000 });
  });
});

describe("the books", () => {
  it("balance after everything above", async () => {
    expect(await ledgerProblems((text) => h.pg.db.query(text))).toEqual([]);
  });
});
