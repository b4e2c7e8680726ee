import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually";
import { connectIso8583, transactionMessage, type Iso8583Client } from "../../../test/support/iso8583-client";
import { DECIDE_MARGIN_MS, SEND_MARGIN_MS } from "../src/network-interface/deadlines";
import {
  call,
  issueCard,
  newBusiness,
  startEngine,
  type Business,
  type CardSetup,
  type EngineHarness,
} from "./harness";

/** A network that waits 1.5 s in all: the receiver gets 1500 − 250 − 300 = 950 ms. */
const TIMEOUT_MS = 1_500;
const RECEIVER_WINDOW_MS = TIMEOUT_MS - SEND_MARGIN_MS - DECIDE_MARGIN_MS;

/** Every line the engine logs, as text. */
const logged: string[] = [];
const logger = pino(
  { level: "debug" },
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged.push(chunk.toString());
      done();
    },
  }),
);

interface Engine {
  h: EngineHarness;
  network: Iso8583Client;
}

async function engine(opts: Parameters<typeof startEngine>[0]): Promise<Engine> {
  const h = await startEngine({ ...opts, logger, networkInterface: { port: 0, timeoutMs: TIMEOUT_MS } });
  return { h, network: await connectIso8583(h.iso8583Port()!) };
}

/** Every PAN the tests sent: none may appear in the log. */
const pans = ["5060991111111111111"];

/** A card of a business whose receiver never answers (no decision is ever published). */
async function silentCard(e: Engine, as: Business, setup: CardSetup) {
  const card = await issueCard(e.h, as, { funds: 10_000, ...setup });
  const pan = (await call(e.h, as, "GET", `/cards/${card.cardId}/secrets`)).body.data.pan as string;
  pans.push(pan);
  return { ...card, pan };
}

const authorizationOf = async (e: Engine, as: Business, cardId: string) =>
  (await call(e.h, as, "GET", `/card-authorizations?filter=card:${cardId}`)).body.data[0];

let onTime: Engine;
let late: Engine;
let overloaded: Engine;
beforeAll(async () => {
  onTime = await engine({ sweeperGraceMs: 50 });
  // The engine applies its default 1 s after the window: later than the network waits.
  late = await engine({ sweeperGraceMs: 1_000 });
  overloaded = await engine({ sweeperGraceMs: 50, admission: { maxInProgress: 1, maxQueuedMs: 50 } });
});
afterAll(async () => {
  for (const e of [onTime, late, overloaded]) {
    await e?.network.close();
    await e?.h.stop();
  }
});

describe("the answer comes before the network's timeout, and is the engine's decision", () => {
  it.each([
    ["decline", "91", "declined"],
    ["approve", "00", "approved"],
  ] as const)(
    "no answer from the receiver, timeout default %s: the window ends inside the network's, answered %s",
    async (timeoutDefault, code, status) => {
      const as = newBusiness();
      const card = await silentCard(onTime, as, { timeoutDefault });
      const started = Date.now();
      const answer = await onTime.network.request(transactionMessage("0100", { pan: card.pan, amount: 400 }));
      const took = Date.now() - started;
      expect(answer.fields[39]).toBe(code);
      expect(took).toBeGreaterThanOrEqual(RECEIVER_WINDOW_MS - 100);
      expect(took).toBeLessThan(TIMEOUT_MS - SEND_MARGIN_MS + 100);
      const auth = await authorizationOf(onTime, as, card.cardId);
      expect(auth).toMatchObject({ status, decisionType: "system-response", statusReason: "timeout-error" });
      // The decision event told the receiver the shortened deadline.
      const asked = onTime.h.events.find((e) => (e.data as { id: string }).id === auth.id)!;
      const answerBy = Date.parse(onTime.h.answerBy.get(asked.metadata.event)!);
      expect(answerBy - started).toBeGreaterThan(RECEIVER_WINDOW_MS - 150);
      expect(answerBy - started).toBeLessThan(RECEIVER_WINDOW_MS + 150);
    },
  );

  it("a decision not known by the answer deadline is answered 91; the engine's timeout default still decides", async () => {
    const as = newBusiness();
    const card = await silentCard(late, as, { timeoutDefault: "approve" });
    const started = Date.now();
    const answer = await late.network.request(transactionMessage("0100", { pan: card.pan, amount: 400 }));
    expect(answer.fields[39]).toBe("91");
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS);
    await eventually(async () =>
      expect(await authorizationOf(late, as, card.cardId)).toMatchObject({
        status: "approved",
        statusReason: "timeout-error",
      }),
    );
  });

  it("a request the engine refuses (overloaded) is answered 91 at once, and nothing is created", async () => {
    const as = newBusiness();
    const busy = await silentCard(overloaded, as, { timeoutDefault: "decline" });
    const refused = await silentCard(overloaded, as, { timeoutDefault: "decline" });
    const holding = overloaded.network.request(transactionMessage("0100", { pan: busy.pan, amount: 100 }));
    await eventually(() =>
      expect(overloaded.h.events.some((e) => e.event === "card.authorization.request")).toBe(true),
    );
    const started = Date.now();
    const answer = await overloaded.network.request(transactionMessage("0100", { pan: refused.pan, amount: 100 }));
    expect(answer.fields[39]).toBe("91");
    expect(Date.now() - started).toBeLessThan(500);
    expect(await authorizationOf(overloaded, as, refused.cardId)).toBeUndefined();
    expect((await holding).fields[39]).toBe("91");
  });
});

describe("the PAN is never logged", () => {
  it("not in anything the messages above logged, nor for an unknown card or a malformed message", async () => {
    const as = newBusiness();
    const card = await silentCard(onTime, as, { timeoutDefault: "approve" });
    expect((await onTime.network.request(transactionMessage("0100", { pan: pans[0]!, amount: 100 }))).fields[39]).toBe(
      "14",
    );
    const malformed = transactionMessage("0100", { pan: card.pan, amount: 100 });
    malformed.fields[14] = "2013";
    expect((await onTime.network.request(malformed)).fields[39]).toBe("30");
    await onTime.network.request({ mti: "0800", fields: { 11: "000009", 70: "001" } });
    const text = logged.join("");
    expect(text).toContain("network sign-on");
    expect(text).toContain("network message malformed");
    for (const pan of pans) expect(text).not.toContain(pan);
  });
});
