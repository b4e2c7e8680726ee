import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAllInOne, type AllInOne } from "./all-in-one";
import { callGateway } from "../../../test/support/api-client";
import { eventually } from "../../../test/support/eventually";
import { FakeReceiver } from "../../../test/support/fake-receiver";
import { connectIso8583, transactionMessage, type Iso8583Client } from "../../../test/support/iso8583-client";

/** The all-in-one (`cardhold dev` with ISO8583_PORT): the engine's network interface beside the gateway. */
let platform: AllInOne;
let network: Iso8583Client;
const receiver = new FakeReceiver();
beforeAll(async () => {
  receiver.answerWith((req) =>
    req.json?.event === "card.authorization.request"
      ? { status: 200, body: { action: "approve" } }
      : { status: 200, body: { code: "success" } },
  );
  await receiver.start();
  platform = await startAllInOne({
    port: 0,
    logLevel: "silent",
    defaultWebhookUrl: receiver.url,
    iso8583: { port: 0 },
  });
  network = await connectIso8583(platform.iso8583!.port);
});
afterAll(async () => {
  await network?.close();
  await platform?.stop();
  await receiver.stop();
});

const api = async (method: string, path: string, body?: unknown) => {
  const reply = await callGateway(platform.url, method, path, { key: platform.defaultBusiness.testKey, body });
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300);
  return reply.body.data;
};

describe("the ISO 8583 network interface in the all-in-one", () => {
  it("listens on the host it was given, and answers an echo", async () => {
    expect(platform.iso8583).toMatchObject({ address: "127.0.0.1", port: expect.any(Number) });
    const echo = await network.request({ mti: "0800", fields: { 11: "000001", 70: "301" } });
    expect(echo.fields[39]).toBe("00");
  });

  it("an authorization of the default business's card: the receiver approves it through the dispatcher", async () => {
    const account = await eventually(async () => {
      const [first] = await api("GET", "/accounts?filter=currency:NGN");
      expect(first).toBeDefined();
      return first;
    });
    await api("POST", "/simulation/payments/pay-in", {
      accountNumber: account.depositChannels[0].accountNumber,
      amount: 50_000,
    });
    const customer = await api("POST", "/customers", {
      name: "Ada Obi",
      reference: "iso-ada",
      type: "individual",
      verifications: ["tier-1"],
      metadata: {},
      claims: {
        individualInformation: {
          firstName: "Ada",
          lastName: "Obi",
          email: "ada@example.com",
          phoneNumber: "+2348000000000",
          dateOfBirth: "1990-01-01",
        },
      },
    });
    const program = await api("POST", "/card-programs", {
      name: "ISO",
      network: "verve",
      type: "virtual",
      currency: "NGN",
    });
    const card = await api("POST", "/cards", { program: program.id, customer: customer.id, reference: "iso-card" });
    const secrets = await api("GET", `/cards/${card.id}/secrets`);
    await api("POST", `/cards/${card.id}/activate`, { cvv: secrets.cvv, pin: "1234" });
    const answer = await network.request(transactionMessage("0100", { pan: secrets.pan, amount: 1_500 }));
    expect(answer).toMatchObject({ mti: "0110", fields: { 39: "00", 4: "000000001500" } });
    const [auth] = await api("GET", `/card-authorizations?filter=card:${card.id}`);
    expect(auth).toMatchObject({ status: "approved", amount: 1_500, decisionType: "direct-response" });
  });
});
