import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@cardhold/platform";
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

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const seen = new Set<string>();

/** A simulated network request (the documented simulation body), its decision event answered with `body`. */
async function decided(
  as: Business,
  card: IssuedCard,
  kind: "check" | "capture",
  request: Record<string, unknown>,
  body: unknown,
): Promise<Reply> {
  const reply = call(h, as, "POST", `/simulation/cards/${card.cardId}/request-authorization/${kind}`, request);
  const question = await nextEvent(
    h,
    seen,
    (e) => e.event === "card.authorization.request" && (e.data as { card?: string }).card === card.cardId,
  );
  await answerDecision(h, as, question, { body });
  return reply;
}

const capture = {
  amount: 50_000,
  fees: 0,
  channel: "pos",
  mcc: "5541",
  merchantDescriptor: "MATRIX ENERGY LIMITE LA LANG",
};

describe("card authorization records (GET) in the documented shape", () => {
  it("networkData holds rrn and its mirror rnn, the network's requestBody and the platform's responseBody", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as);
    const reply = await decided(as, card, "capture", capture, { action: "approve" });
    const id = reply.body.data.id;
    const { body } = await call(h, as, "GET", `/card-authorizations/${id}`);
    const auth = body.data;
    const network = auth.networkData;
    expect(network).toMatchObject({
      network: "verve",
      cardAcceptorNameLocation: "MATRIX ENERGY LIMITE LA LANG",
      stan: expect.stringMatching(/^\d+$/),
      rrn: expect.stringMatching(/^\d+$/),
      txnReference: expect.stringMatching(/^\d+$/),
      reference: expect.any(String),
    });
    expect(network.rnn).toBe(network.rrn);
    expect(network.requestBody).toEqual({
      requestId: network.reference,
      amount: 50_000,
      walletId: card.fundingAccount,
      transactionReference: network.txnReference,
      mac: "",
      acquiringInstitutionId: "",
      terminalId: network.terminalId,
      terminalType: "pos",
      merchantId: "",
      currencyCode: "566",
      cardAcceptorNameLocation: "MATRIX ENERGY LIMITE LA LANG",
      transactionDateTime: auth.createdAt,
    });
    expect(network.responseBody).toEqual({
      amount: 50_000,
      mac: "",
      name: "",
      requestId: network.reference,
      responseCode: "00",
      transactionReference: network.txnReference,
    });
    const listed = await call(h, as, "GET", `/card-authorizations?filter=id:${id}`);
    expect(listed.body.data).toEqual([auth]);
  });

  it("the responseBody tells a decline's code and a check's holder name; a network reference is the requestId", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 1_000 });
    const declined = await call(h, as, "POST", `/simulation/cards/${card.cardId}/request-authorization/capture`, {
      ...capture,
      reference: "net-ref-1",
    });
    expect(declined.body.data).toMatchObject({ status: "declined", declineReason: "insufficient-funds" });
    const declinedRecord = (await call(h, as, "GET", `/card-authorizations/${declined.body.data.id}`)).body.data;
    expect(declinedRecord.networkData.requestBody.requestId).toBe("net-ref-1");
    expect(declinedRecord.networkData.responseBody).toMatchObject({ responseCode: "51", requestId: "net-ref-1" });

    const check = await decided(
      as,
      card,
      "check",
      { channel: "atm" },
      {
        action: "approve",
        cardBalance: 1_000,
        cardHolderName: "Ciroma Adekunle",
      },
    );
    const checkRecord = (await call(h, as, "GET", `/card-authorizations/${check.body.data.id}`)).body.data;
    expect(checkRecord.networkData.requestBody).toMatchObject({ amount: 0, terminalType: "atm", currencyCode: "566" });
    expect(checkRecord.networkData.responseBody).toMatchObject({ name: "Ciroma Adekunle", responseCode: "00" });
  });

  it("events carry the network's rrn and stan in networkData", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as);
    const reply = await decided(as, card, "capture", capture, { action: "approve" });
    const request = h.events.find(
      (e) => e.event === "card.authorization.request" && (e.data as { id: string }).id === reply.body.data.id,
    )!;
    expect(request.data.networkData).toMatchObject({ rrn: expect.any(String), stan: expect.any(String) });
  });

  it("answers 404 for an unknown authorization", async () => {
    const as = newBusiness();
    const missing = await call(h, as, "GET", `/card-authorizations/${newId("authorization")}`);
    expect(missing).toMatchObject({ status: 404, body: { code: "not-found" } });
  });
});

describe("card transaction records in the documented shape", () => {
  it("have updatedAt and networkData {stan, rrn, reference, terminalId, cardAcceptorNameLocation, network}", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as);
    const reply = await decided(as, card, "capture", capture, { action: "approve" });
    const listed = await call(h, as, "GET", `/card-transactions?filter=authorization:${reply.body.data.id}`);
    expect(listed.body.data).toHaveLength(1);
    const transaction = listed.body.data[0];
    expect(transaction).toMatchObject({
      object: "card.transaction",
      authorization: reply.body.data.id,
      createdAt: expect.stringMatching(TIMESTAMP),
      updatedAt: transaction.createdAt,
    });
    expect(transaction.networkData).toMatchObject({
      stan: expect.any(String),
      rrn: expect.any(String),
      reference: expect.any(String),
      terminalId: expect.any(String),
      cardAcceptorNameLocation: "MATRIX ENERGY LIMITE LA LANG",
      network: "verve",
    });
    expect((await call(h, as, "GET", `/card-transactions/${transaction.id}`)).body.data).toEqual(transaction);
    const since = `/card-transactions?filter=updatedAt|gted|${transaction.updatedAt}&sort=-updatedAt`;
    expect((await call(h, as, "GET", since)).body.data.map((t: { id: string }) => t.id)).toEqual([transaction.id]);
  });

  it("refuses a filter on updatedAt that is not a date, and an unknown transaction", async () => {
    const as = newBusiness();
    const bad = await call(h, as, "GET", "/card-transactions?filter=updatedAt|gted|yesterday");
    expect(bad).toMatchObject({ status: 400, body: { code: "invalid-query" } });
    expect((await call(h, as, "GET", `/card-transactions/${newId("transaction")}`)).status).toBe(404);
  });
});
