import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOPICS, type CustomerChangedMessage } from "@cardhold/contracts";
import { newId } from "@cardhold/platform";
import { MAX_DEPOSIT_CHANNELS } from "../src/accounts/deposit-channels";
import { balanceOf, call, newBusiness, startEngine, type Business, type EngineHarness } from "./harness";

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngine();
});
afterAll(async () => {
  await h?.stop();
});

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const paths = (body: { errors?: Array<{ path: string }> }) => (body.errors ?? []).map((e) => e.path);

/** A channel in the documented shape (sandbox: bank code 000). */
const documentedChannel = (accountName: string) => ({
  type: "bank-account",
  accountName,
  accountNumber: expect.stringMatching(/^\d{10}$/),
  bankName: expect.any(String),
  bankCode: "000",
  partner: expect.any(String),
  createdAt: expect.stringMatching(TIMESTAMP),
  updatedAt: expect.stringMatching(TIMESTAMP),
});

/** customers.v1 announcing an individual customer with the fixture's names (name differs from the full name). */
async function announceIndividual(as: Business): Promise<string> {
  const id = newId("customer");
  const now = new Date().toISOString();
  const value: CustomerChangedMessage = {
    type: "customer.created",
    businessId: as.businessId,
    mode: as.mode,
    occurredAt: now,
    data: {
      id,
      object: "customer",
      name: "Ciroma C Adekunle",
      reference: `ref-${id}`,
      type: "individual",
      status: "active",
      claims: { individualInformation: { firstName: "Ciroma", middleName: "Chukwuma", lastName: "Adekunle" } },
      verifications: [{ type: "tier-2", status: "verified" }],
      metadata: {},
      createdAt: now,
      updatedAt: now,
    },
  };
  await h.bus.publish([{ topic: TOPICS.customers, key: id, value, id: newId("message") }]);
  return id;
}

/** POST /accounts as documented: depositChannels as strings. */
const openAccount = (as: Business, extra: Record<string, unknown> = {}) =>
  call(h, as, "POST", "/accounts", {
    name: "Ciroma's wallet",
    currency: "NGN",
    type: "sub",
    depositChannels: ["bank-account"],
    ...extra,
  });

describe("deposit channels in the documented shape", () => {
  it("POST /accounts takes depositChannels as strings and answers channel records with their times", async () => {
    const as = newBusiness();
    const account = await openAccount(as);
    expect(account.status).toBe(201);
    expect(account.body.data.depositChannels).toEqual([documentedChannel("Ciroma's wallet")]);
    expect(account.body.data.depositChannels[0].createdAt).toBe(account.body.data.createdAt);
  });

  it("POST /accounts/:id/deposit-channels adds a channel with its own number, which receives pay-ins", async () => {
    const as = newBusiness();
    const account = (await openAccount(as)).body.data;
    const added = await call(h, as, "POST", `/accounts/${account.id}/deposit-channels`, { type: "bank-account" });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ code: "success", data: { id: account.id, object: "account" } });
    const channels = added.body.data.depositChannels;
    expect(channels).toEqual([account.depositChannels[0], documentedChannel("Ciroma's wallet")]);
    expect(channels[1].accountNumber).not.toBe(channels[0].accountNumber);
    expect(added.body.data.updatedAt >= account.updatedAt).toBe(true);
    expect((await call(h, as, "GET", `/accounts/${account.id}`)).body.data.depositChannels).toEqual(channels);

    const paid = await call(h, as, "POST", "/simulation/payments/pay-in", {
      accountNumber: channels[1].accountNumber,
      amount: 7_500,
    });
    expect(paid.body.data).toMatchObject({ id: account.id });
    expect(await balanceOf(h, as, account.id)).toMatchObject({ available: 7_500 });
  });

  it("gives an account opened without a channel its first one", async () => {
    const as = newBusiness();
    const account = (await openAccount(as, { depositChannels: undefined })).body.data;
    expect(account.depositChannels).toEqual([]);
    const added = await call(h, as, "POST", `/accounts/${account.id}/deposit-channels`, { type: "bank-account" });
    expect(added.body.data.depositChannels).toEqual([documentedChannel("Ciroma's wallet")]);
  });

  it("refuses another type (400), an unknown or another business's account (404), and too many channels (422)", async () => {
    const as = newBusiness();
    const account = (await openAccount(as)).body.data;
    const path = `/accounts/${account.id}/deposit-channels`;
    const badType = await call(h, as, "POST", path, { type: "sms" });
    expect(badType.status).toBe(400);
    expect(paths(badType.body)).toEqual(["type"]);
    expect((await call(h, as, "POST", `/accounts/${newId("account")}/deposit-channels`, {})).status).toBe(404);
    expect((await call(h, newBusiness(), "POST", path, { type: "bank-account" })).status).toBe(404);
    for (let n = 1; n < MAX_DEPOSIT_CHANNELS; n++) await call(h, as, "POST", path, { type: "bank-account" });
    const tooMany = await call(h, as, "POST", path, { type: "bank-account" });
    expect(tooMany).toMatchObject({ status: 422, body: { code: "invalid-state" } });
    const after = (await call(h, as, "GET", `/accounts/${account.id}`)).body.data.depositChannels;
    expect(after).toHaveLength(MAX_DEPOSIT_CHANNELS);
  });

  it("adds one channel for an Idempotency-Key sent twice, answering the first answer again", async () => {
    const as = newBusiness();
    const account = (await openAccount(as)).body.data;
    const path = `/accounts/${account.id}/deposit-channels`;
    const key = { "idempotency-key": "add-channel-1" };
    const first = await call(h, as, "POST", path, { type: "bank-account" }, key);
    const again = await call(h, as, "POST", path, { type: "bank-account" }, key);
    expect(again).toMatchObject({ status: 201, body: first.body });
    expect(again.headers?.get("idempotent-replayed")).toBe("true");
    expect((await call(h, as, "GET", `/accounts/${account.id}`)).body.data.depositChannels).toHaveLength(2);
  });
});

describe("PUT /accounts/:id/deposit-channels/update-account-name", () => {
  it("names the picked channel after the account's customer's full name, and leaves the others", async () => {
    const as = newBusiness();
    const customer = await announceIndividual(as);
    const account = (await openAccount(as, { customer })).body.data;
    const second = (await call(h, as, "POST", `/accounts/${account.id}/deposit-channels`, {})).body.data;
    const [first, picked] = second.depositChannels;
    const renamed = await call(h, as, "PUT", `/accounts/${account.id}/deposit-channels/update-account-name`, {
      type: "bank-account",
      accountNumber: picked.accountNumber,
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.depositChannels).toEqual([
      first,
      { ...picked, accountName: "Ciroma Chukwuma Adekunle", updatedAt: expect.stringMatching(TIMESTAMP) },
    ]);
    expect(renamed.body.data.depositChannels[1].updatedAt >= picked.updatedAt).toBe(true);
    expect((await call(h, as, "GET", `/accounts/${account.id}`)).body.data).toEqual(renamed.body.data);
  });

  it("refuses a bad number (400), a number not on the account (404) and an account without customer (422)", async () => {
    const as = newBusiness();
    const customer = await announceIndividual(as);
    const account = (await openAccount(as, { customer })).body.data;
    const path = `/accounts/${account.id}/deposit-channels/update-account-name`;
    const badNumber = await call(h, as, "PUT", path, { type: "bank-account", accountNumber: "12345" });
    expect(badNumber.status).toBe(400);
    expect(paths(badNumber.body)).toEqual(["accountNumber"]);
    expect(paths((await call(h, as, "PUT", path, { type: "bank-account" })).body)).toEqual(["accountNumber"]);
    const elsewhere = await call(h, as, "PUT", path, { type: "bank-account", accountNumber: "0123456789" });
    expect(elsewhere).toMatchObject({ status: 404, body: { code: "not-found" } });

    const noCustomer = (await openAccount(as)).body.data;
    const refused = await call(h, as, "PUT", `/accounts/${noCustomer.id}/deposit-channels/update-account-name`, {
      type: "bank-account",
      accountNumber: noCustomer.depositChannels[0].accountNumber,
    });
    expect(refused).toMatchObject({ status: 422, body: { code: "invalid-state" } });
  });
});
