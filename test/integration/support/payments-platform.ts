import pg from "pg";
import { expect } from "vitest";
import { apiClient, createBusiness } from "../../support/api-client";
import { eventually } from "../../support/eventually";
import { FakeReceiver } from "../../support/fake-receiver";
import { ledgerProblems } from "../../support/ledger-invariants";
import { untilDispatcherRoutesTo } from "./dispatcher-routing";
import { createScratchDatabase, DATABASE_URL, KAFKA_BROKERS } from "./infrastructure";
import { startPlatform, type Platform } from "./service-processes";

/**
 * The platform as separate processes on real Kafka and PostgreSQL, one business whose webhook is a fake receiver and
 * whose NGN settlement account holds 1,000,000: what the bill payment and payout suites start from. Its fields are set
 * by start(); `env` adds settings of the services (the ISO 8583 suite's ISO8583_PORT).
 */
export function paymentsPlatform(business: { name: string; signingKey: string }, env: Record<string, string> = {}) {
  const receiver = new FakeReceiver();
  let database: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  const state = {
    platform: undefined as unknown as Platform,
    db: undefined as unknown as pg.Client,
    key: "",
    settlement: "",
  };
  const api = apiClient(
    () => state.platform.gatewayUrl,
    () => state.key,
  );
  return {
    receiver,
    api,
    get platform() {
      return state.platform;
    },
    get db() {
      return state.db;
    },
    get settlement() {
      return state.settlement;
    },
    async start() {
      await receiver.start();
      database = await createScratchDatabase(DATABASE_URL!);
      state.platform = await startPlatform(database.url, KAFKA_BROKERS!, { BILL_BILLER_TIMEOUT_MS: "2000", ...env });
      state.db = new pg.Client({ connectionString: database.url });
      await state.db.connect();
      state.key = (
        await createBusiness(state.platform.gatewayUrl, state.platform.operatorToken, {
          ...business,
          webhookUrl: receiver.url,
        })
      ).testKey;
      const account = await eventually(async () => {
        const list = await api("GET", "/accounts?filter=currency:NGN");
        expect(list.body.data).toHaveLength(1);
        return list.body.data[0];
      }, 30_000);
      state.settlement = account.id;
      await api("POST", "/simulation/payments/pay-in", {
        accountNumber: account.depositChannels[0].accountNumber,
        amount: 1_000_000,
      });
      await untilDispatcherRoutesTo(state.db, receiver.url);
    },
    async stop() {
      await state.db?.end();
      await state.platform?.stop();
      await database?.drop();
      await receiver.stop();
    },
    /** The settlement account's available balance. */
    available: async () => (await api("GET", `/accounts/${state.settlement}/balance`)).body.data.available as number,
    booksBalance: async () => expect(await ledgerProblems((text) => state.db.query(text))).toEqual([]),
    /** The payment's event reached the business's webhook, and the account log shows its debit (and refund). */
    async visible(paymentId: string, kind: string, logKinds: string[]) {
      await eventually(
        () =>
          expect(receiver.received.filter((r) => r.json?.data?.id === paymentId).map((r) => r.json.event)).toContain(
            kind,
          ),
        30_000,
      );
      const logs = (await api("GET", `/accounts/${state.settlement}/logs?filter=reference:${paymentId}`)).body.data;
      expect(logs.map((l: { kind: string }) => l.kind).sort()).toEqual([...logKinds].sort());
    },
  };
}
