import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually";
import { ledgerProblems } from "../../../test/support/ledger-invariants";
import {
  answerDecision,
  balanceOf,
  call,
  eventsOf,
  issueCard,
  newBusiness,
  nextEvent,
  startEngine,
  type Business,
  type EngineHarness,
  type Envelope,
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

const seen = new Set<string>();

/** A capture from the simulated network; the test answers its card.authorization.request with `body`. */
async function capture(
  as: Business,
  card: IssuedCard,
  request: Record<string, unknown>,
  body: unknown,
): Promise<{ reply: Reply; asked: Envelope }> {
  const reply = call(h, as, "POST", `/simulation/cards/${card.cardId}/request-authorization/capture`, request);
  const asked = await nextEvent(
    h,
    seen,
    (e) => e.event === "card.authorization.request" && (e.data as { card?: string }).card === card.cardId,
  );
  await answerDecision(h, as, asked, { body });
  return { reply: await reply, asked };
}

const eventOf = (id: string, kind: string) =>
  eventually(() => {
    const found = eventsOf(h, id).find((e) => e.event === kind);
    expect(found, kind).toBeDefined();
    return found!;
  }, 5_000);

const logsOf = async (as: Business, account: string) =>
  (await call(h, as, "GET", `/accounts/${account}/logs`)).body.data as Array<{ kind: string; amount: number }>;

describe("partial approval: a capture that allows it, approved for less", () => {
  it("holds, debits, tells and books the approved amount, and keeps the requested one", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 10_000 });
    const { reply, asked } = await capture(
      as,
      card,
      { amount: 5_000, fees: 100, channel: "pos", partialApprovalAllowed: true },
      { action: "approve", amount: 3_000 },
    );
    expect(asked.data).toMatchObject({ amount: 5_000, requestedAmount: 5_000, partialApprovalAllowed: true });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.data).toMatchObject({
      status: "approved",
      decisionType: "direct-response",
      amount: 3_000,
      requestedAmount: 5_000,
      partialApprovalAllowed: true,
      fees: 100,
      reserved: false,
    });
    const id = reply.body.data.id as string;

    expect(await balanceOf(h, as, card.fundingAccount)).toEqual(
      expect.objectContaining({ available: 6_900, ledger: 6_900, held: 0 }),
    );
    const captures = (await logsOf(as, card.fundingAccount)).filter((e) => e.kind === "capture");
    expect(captures.map((e) => e.amount)).toEqual([-3_100]);
    expect((await eventOf(id, "card.authorization.closed")).data).toMatchObject({
      status: "approved",
      amount: 3_000,
      requestedAmount: 5_000,
    });
    expect((await eventOf(id, "card.transaction.created")).data).toMatchObject({ amount: -3_000, fees: -100 });

    const record = (await call(h, as, "GET", `/card-authorizations/${id}`)).body.data;
    expect(record).toMatchObject({ amount: 3_000, requestedAmount: 5_000 });
    expect(record.networkData.requestBody.amount).toBe(5_000);
    expect(record.networkData.responseBody).toMatchObject({ amount: 3_000, responseCode: "10" });
    expect(await ledgerProblems((text) => h.pg.db.query(text))).toEqual([]);
  });

  it("approved for the whole amount asked, it is an ordinary approval", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 10_000 });
    const { reply } = await capture(
      as,
      card,
      { amount: 5_000, channel: "pos", partialApprovalAllowed: true },
      { action: "approve", amount: 5_000 },
    );
    expect(reply.body.data).toMatchObject({ status: "approved", amount: 5_000, requestedAmount: 5_000 });
    expect(reply.body.data.networkData.responseBody.responseCode).toBe("00");
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 5_000, held: 0 });
  });
});

describe("an unusable partial answer: the timeout default decides, invalid-response", () => {
  it.each<[string, Record<string, unknown>, number, "approve" | "decline"]>([
    ["more than asked", { partialApprovalAllowed: true }, 5_001, "decline"],
    ["less, where the request did not allow it", {}, 3_000, "decline"],
    ["less, not allowed, on a card whose default approves (the whole amount)", {}, 3_000, "approve"],
  ])("an approve of %s", async (_name, extra, amount, timeoutDefault) => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 10_000, timeoutDefault });
    const { reply, asked } = await capture(
      as,
      card,
      { amount: 5_000, channel: "online", ...extra },
      { action: "approve", amount },
    );
    expect(asked.data).toMatchObject({ partialApprovalAllowed: extra.partialApprovalAllowed === true });
    expect(reply.body.data).toMatchObject({
      status: timeoutDefault === "approve" ? "approved" : "declined",
      decisionType: "system-response",
      statusReason: "invalid-response",
      amount: 5_000,
      requestedAmount: 5_000,
    });
    const available = timeoutDefault === "approve" ? 5_000 : 10_000;
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available, held: 0 });
  });
});

describe("the simulation's partialApprovalAllowed", () => {
  it("must be a boolean", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as);
    const reply = await call(h, as, "POST", `/simulation/cards/${card.cardId}/request-authorization/capture`, {
      amount: 5_000,
      channel: "pos",
      partialApprovalAllowed: "yes",
    });
    expect(reply.status).toBe(400);
    expect(JSON.stringify(reply.body)).toContain("partialApprovalAllowed");
  });

  it("is not on a check's record", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as);
    const reply = call(h, as, "POST", `/simulation/cards/${card.cardId}/request-authorization/check`, {
      channel: "pos",
    });
    const asked = await nextEvent(
      h,
      seen,
      (e) => e.event === "card.authorization.request" && (e.data as { card?: string }).card === card.cardId,
    );
    expect(asked.data).not.toHaveProperty("partialApprovalAllowed");
    expect(asked.data).not.toHaveProperty("requestedAmount");
    await answerDecision(h, as, asked, { body: { action: "approve", cardBalance: 1, cardHolderName: "Ada Obi" } });
    expect((await reply).body.data.status).toBe("approved");
  });
});
