import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildJposClient, jposUnavailable, startJposClient, type JposClient, type JposMessage } from "../iso8583/jpos";
import { eventually } from "../support/eventually";
import type { ReceivedRequest } from "../support/fake-receiver";
import { HAS_INFRASTRUCTURE } from "./support/infrastructure";
import { paymentsPlatform } from "./support/payments-platform";
import { freePort } from "./support/service-processes";
import { ADA_OBI } from "../support/card-holder";

/**
 * The ISO 8583 interface in the distributed wiring (six services as processes, real Kafka and PostgreSQL), spoken to by
 * an independent implementation: jPOS (ISO87BPackager over NACChannel) packs every request and reads every answer.
 * Each message type, then the same operations through the simulation endpoints on a twin card: the authorizations,
 * the events the receiver gets and the ledger must come out the same.
 */
const unavailable = jposUnavailable();
if (unavailable && process.env.CI) throw new Error(`the jPOS suite must run in CI, but ${unavailable}`);
if (unavailable && HAS_INFRASTRUCTURE)
  console.error(`ISO 8583 jPOS suite skipped: ${unavailable} (needs Java 17 and Maven)`);

const DESCRIPTOR = "MAINLAND FRESH MART      LAGOS        NG";
const CARD_FUNDS = 100_000;

function answer(req: ReceivedRequest) {
  const event = req.json?.event;
  if (event === "card.authorization.request" && req.json.data.type === "check")
    return { status: 200, body: { action: "approve", cardBalance: 77_000, cardHolderName: "Ada Obi" } };
  if (event === "card.authorization.request" || req.json?.data?.status === "pending")
    return { status: 200, body: { action: "approve" } };
  return { status: 200, body: { code: "success" } };
}

describe.skipIf(!HAS_INFRASTRUCTURE || unavailable !== undefined)(
  "the ISO 8583 network interface, with jPOS as the network, on Kafka and PostgreSQL",
  () => {
    const env: Record<string, string> = {};
    const h = paymentsPlatform({ name: "Network Ltd", signingKey: "iso8583-it-signing-key-0123456789" }, env);
    const { api } = h;
    let jpos: JposClient;
    const cards: Record<"iso" | "sim", { id: string; pan: string; expiry: string; cvv: string; account: string }> = {
      iso: { id: "", pan: "", expiry: "", cvv: "", account: "" },
      sim: { id: "", pan: "", expiry: "", cvv: "", account: "" },
    };

    let stan = 0;
    const trace = () => {
      stan += 1;
      return { stan: String(stan).padStart(6, "0"), rrn: `IT${String(stan).padStart(10, "0")}` };
    };
    /** A transaction message for the ISO card, as the README's field table has it. */
    const message = (mti: string, amount: number, extra: Record<string, string> = {}): JposMessage => {
      const { stan: s, rrn } = trace();
      return {
        mti,
        fields: {
          2: cards.iso.pan,
          3: "000000",
          4: String(amount).padStart(12, "0"),
          7: "1125103000",
          11: s,
          12: "103000",
          13: "1125",
          14: cards.iso.expiry,
          18: "5411",
          22: "051",
          32: "123456",
          37: rrn,
          41: "TERM0001",
          42: "MERCHANT0000001",
          43: DESCRIPTOR,
          48: `9203${cards.iso.cvv}`,
          49: "566",
          52: "0123456789ABCDEF",
          ...extra,
        },
      };
    };
    const reversalOf = (mti: string, original: JposMessage, extra: Record<string, string> = {}) => {
      const m = message(mti, Number(original.fields["4"]), {
        37: original.fields["37"]!,
        90: `${original.mti}${original.fields["11"]}${"0".repeat(32)}`,
        ...extra,
      });
      return m;
    };
    const sim = (path: string, body: Record<string, unknown>) =>
      api("POST", `/simulation/cards/${cards.sim.id}/request-authorization/${path}`, {
        channel: "pos",
        mcc: "5411",
        merchantDescriptor: DESCRIPTOR,
        ...body,
      });

    beforeAll(async () => {
      buildJposClient();
      env.ISO8583_PORT = String(await freePort());
      h.receiver.answerWith(answer);
      await h.start();
      const customer = await api("POST", "/customers", ADA_OBI);
      const program = await api("POST", "/card-programs", {
        name: "Card accounts",
        network: "verve",
        type: "virtual",
        currency: "NGN",
        authorization: { fundingSourceType: "card-account" },
      });
      for (const which of ["iso", "sim"] as const) {
        const issued = await api("POST", "/cards", {
          program: program.body.data.id,
          customer: customer.body.data.id,
          reference: `${which}-card`,
          amount: CARD_FUNDS,
          debitSource: h.settlement,
        });
        expect(issued.status, JSON.stringify(issued.body)).toBe(201);
        const id = issued.body.data.id as string;
        const secrets = (await api("GET", `/cards/${id}/secrets`)).body.data;
        await api("POST", `/cards/${id}/activate`, { cvv: secrets.cvv, pin: "2468" });
        const [month, year] = (secrets.expiry as string).split("/");
        cards[which] = {
          id,
          pan: secrets.pan,
          expiry: `${year}${month}`,
          cvv: secrets.cvv,
          account: issued.body.data.fundingSource,
        };
      }
      jpos = await startJposClient("127.0.0.1", Number(env.ISO8583_PORT));
    });
    afterAll(async () => {
      await jpos?.close();
      await h.stop();
    });

    it("0800 sign-on and echo: 0810 00", async () => {
      for (const code of ["001", "301"]) {
        const { stan: s } = trace();
        expect(await jpos.request({ mti: "0800", fields: { 7: "1125103000", 11: s, 70: code } })).toEqual({
          mti: "0810",
          fields: { 7: "1125103000", 11: s, 39: "00", 70: code },
        });
      }
    });

    it("what the interface refuses itself: 14, 54, 05, 12, 30, 25 — and no authorization is made", async () => {
      const code = async (m: JposMessage) => (await jpos.request(m)).fields["39"];
      expect(await code(message("0100", 100, { 2: "5060990000000000000" }))).toBe("14");
      expect(await code(message("0100", 100, { 14: "2001" }))).toBe("54");
      expect(await code(message("0100", 100, { 48: `9203${cards.iso.cvv === "999" ? "998" : "999"}` }))).toBe("05");
      expect(await code(message("0100", 100, { 3: "200000" }))).toBe("12");
      expect(await code(message("0100", 100, { 14: "2613" }))).toBe("30");
      expect(await code(reversalOf("0400", message("0100", 100)))).toBe("25");
      expect((await api("GET", `/card-authorizations?filter=card:${cards.iso.id}`)).body.data).toEqual([]);
    });

    /** The operations, through jPOS on one card and through the simulation endpoints on its twin. */
    it("check, captures, an advice, a duplicate, a full and a partial reversal, a decline: every answer", async () => {
      const check = await jpos.request(message("0100", 0));
      expect(check).toMatchObject({ mti: "0110", fields: { 39: "00", 54: "0002566C000000077000" } });
      expect(check.fields["38"]).toMatch(/^\d{6}$/);

      const first = message("0100", 2_000);
      const captured = await jpos.request(first);
      expect(captured).toMatchObject({ mti: "0110", fields: { 4: "000000002000", 39: "00", 11: first.fields["11"] } });
      const duplicate = await jpos.request({ ...first, mti: "0101" });
      expect(duplicate).toEqual({ ...captured });

      const financial = message("0200", 3_000);
      expect(await jpos.request(financial)).toMatchObject({ mti: "0210", fields: { 39: "00" } });
      expect(await jpos.request(message("0100", 1_500))).toMatchObject({ mti: "0110", fields: { 39: "00" } });

      const advice = message("0120", 900, { 39: "00" });
      expect(await jpos.request(advice)).toMatchObject({ mti: "0130", fields: { 39: "00" } });

      expect(await jpos.request(reversalOf("0400", first))).toMatchObject({ mti: "0410", fields: { 39: "00" } });
      const partial = reversalOf("0420", financial, {
        95: `${"1200".padStart(12, "0")}${"0".repeat(12)}D00000000D00000000`,
      });
      expect(await jpos.request(partial)).toMatchObject({ mti: "0430", fields: { 39: "00" } });
      expect(await jpos.request({ ...partial, mti: "0421" })).toMatchObject({ mti: "0430", fields: { 39: "00" } });

      expect((await jpos.request(message("0100", 500_000))).fields["39"]).toBe("51");

      // The same on the twin card, through the simulation endpoints.
      expect((await sim("check", {})).body.data.status).toBe("approved");
      const a = (await sim("capture", { amount: 2_000 })).body.data;
      const b = (await sim("capture", { amount: 3_000 })).body.data;
      expect((await sim("capture", { amount: 1_500 })).body.data.status).toBe("approved");
      expect((await sim("reverse-capture", { authorization: a.id })).body.data.status).toBe("reversed");
      expect((await sim("update-capture", { authorization: b.id, updateAmount: 1_200 })).body.data.amount).toBe(1_200);
      expect((await sim("capture", { amount: 500_000 })).body.data.declineReason).toBe("insufficient-funds");
    });

    const authorizationsOf = async (card: string) =>
      (
        (await api("GET", `/card-authorizations?filter=card:${card}&sort=createdAt`)).body.data as Array<
          Record<string, unknown>
        >
      ).map(
        ({
          id,
          type,
          status,
          amount,
          requestedAmount,
          fees,
          currency,
          channel,
          mcc,
          decisionType,
          statusReason,
          declineReason,
          reserved,
          cardBalance,
        }) => ({
          id,
          same: {
            type,
            status,
            amount,
            requestedAmount,
            fees,
            currency,
            channel,
            mcc,
            decisionType,
            statusReason,
            declineReason,
            reserved,
            cardBalance,
          },
        }),
      );
    /** The kinds of the distinct events the receiver got about an authorization, sorted. */
    const eventKindsOf = (id: unknown) => {
      const byEvent = new Map<string, string>();
      for (const r of h.receiver.received)
        if (r.json?.data?.id === id || r.json?.data?.authorization === id)
          byEvent.set(r.json.metadata.event, r.json.event);
      return [...byEvent.values()].sort();
    };

    it("the same authorizations, events and ledger as the simulation endpoints produce", async () => {
      const iso = await eventually(async () => {
        const list = await authorizationsOf(cards.iso.id);
        expect(list.find((a) => a.same.amount === 1_200)?.same.status).toBe("approved");
        return list;
      });
      const simulated = await authorizationsOf(cards.sim.id);
      expect(iso.map((a) => a.same)).toEqual(simulated.map((a) => a.same));
      expect(iso).toHaveLength(5);

      await eventually(() => {
        for (const [i, a] of iso.entries()) expect(eventKindsOf(a.id)).toEqual(eventKindsOf(simulated[i]!.id));
      }, 30_000);

      const transactions = async (card: string) =>
        ((await api("GET", `/card-transactions?filter=card:${card}`)).body.data as Array<Record<string, unknown>>)
          .map(({ type, amount, fees, channel }) => ({ type, amount, fees, channel }))
          .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
      expect(await transactions(cards.iso.id)).toEqual(await transactions(cards.sim.id));

      const ledger = async (account: string) => ({
        balance: { ...(await api("GET", `/accounts/${account}/balance`)).body.data, account: "the card's" },
        logs: ((await api("GET", `/accounts/${account}/logs`)).body.data as Array<Record<string, unknown>>)
          .map(({ kind, amount }) => ({ kind, amount }))
          .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))),
      });
      expect(await ledger(cards.iso.account)).toEqual(await ledger(cards.sim.account));
      // A reversal credits the program's settlement account, not the card's (interface Rule 4).
      expect((await ledger(cards.iso.account)).balance.available).toBe(CARD_FUNDS - 2_000 - 1_200 - 1_500);
      await h.booksBalance();
    });

    it("the advice and every answer are recorded by message; the PAN only masked", async () => {
      const { rows } = await h.db.query<{ mti: string; request: { pan: string } }>(
        "SELECT mti, request FROM engine.network_messages WHERE card_id = $1 ORDER BY received_at",
        [cards.iso.id],
      );
      expect(rows.map((r) => r.mti)).toEqual(expect.arrayContaining(["0100", "0200", "0120", "0400", "0420"]));
      expect(JSON.stringify(rows)).not.toContain(cards.iso.pan);
    });
  },
);
