import { pino } from "pino";
import { describe, expect, it } from "vitest";
import type { Db } from "@cardhold/db";
import { createAdmission } from "@cardhold/platform";
import type { DecisionWaiters } from "../authorizations/decision-waiters";
import { createCardVault, newCardDataKey } from "../cards/card-vault";
import { answerMessage } from "./answer-message";
import type { MessageContext } from "./message-context";

/** A context whose database fails every statement: what the interface answers when the platform breaks. */
const broken: MessageContext = {
  db: {
    query: () => Promise.reject(new Error("connection terminated")),
    tx: () => Promise.reject(new Error("connection terminated")),
  } as unknown as Db,
  vault: createCardVault(newCardDataKey()),
  logger: pino({ level: "silent" }),
  waiters: {} as DecisionWaiters,
  admission: createAdmission(),
  timeoutMs: 4_000,
};

const authorization = {
  mti: "0100",
  fields: {
    2: "5060990000000000001",
    3: "000000",
    4: "000000001000",
    11: "000042",
    37: "123456789012",
    41: "TERM0001",
    49: "566",
  },
};

describe("answering without the database", () => {
  it("a transaction that fails is answered 96, echoing its STAN and RRN", async () => {
    const answer = await answerMessage(broken, authorization, Date.now());
    expect(answer).toMatchObject({ mti: "0110", fields: { 11: "000042", 37: "123456789012", 39: "96" } });
  });

  it("network management and format errors need no database", async () => {
    expect(await answerMessage(broken, { mti: "0800", fields: { 11: "000001", 70: "301" } }, Date.now())).toEqual({
      mti: "0810",
      fields: { 11: "000001", 39: "00", 70: "301" },
    });
    const noStan = { mti: "0100", fields: { ...authorization.fields, 11: "12a" } };
    expect((await answerMessage(broken, noStan, Date.now()))?.fields[39]).toBe("30");
  });

  it("an answer (0110) is not answered", async () => {
    expect(await answerMessage(broken, { mti: "0110", fields: { 39: "00" } }, Date.now())).toBeUndefined();
  });
});
