import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DECISION_ANSWERS_PATH } from "@cardhold/contracts";
import {
  captureAsked,
  decisionAnswered,
  INTERNAL,
  issueCard,
  newBusiness,
  startEngine,
  type EngineHarness,
} from "./harness";

const ANSWER_TO = "http://127.0.0.1:8084";
let h: EngineHarness;

beforeAll(async () => {
  h = await startEngine({ answerTo: ANSWER_TO, sweeperGraceMs: 50 });
});

afterAll(async () => {
  await h?.stop();
});

/** Posts as the dispatcher does: the internal credential, no business headers. */
const post = async (body: unknown, token = INTERNAL) => {
  const res = await fetch(h.url + DECISION_ANSWERS_PATH, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token && { "x-internal-token": token }) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

/** A capture asked of the receiver: the simulation's reply (once decided) and the decision event it raised. */
async function askCapture() {
  const as = newBusiness();
  const card = await issueCard(h, as);
  return { as, ...(await captureAsked(h, as, card.cardId, 5_000)) };
}

describe("the answer's way back (ENGINE_ANSWER_URL)", () => {
  it("rides on each decision event the engine emits", async () => {
    const { as, reply, question } = await askCapture();
    expect(h.answerTo.get(question.metadata.event)).toBe(ANSWER_TO);
    expect(h.answerBy.get(question.metadata.event)).toBeDefined();
    expect((await post(decisionAnswered(as, question, { body: { action: "decline" } }))).status).toBe(200);
    expect((await reply).body.data.status).toBe("declined");
  });

  it("takes a posted answer: applied once, and the waiting request answered with it", async () => {
    const { as, reply, question } = await askCapture();
    const answer = decisionAnswered(as, question, { body: { action: "approve" } });
    expect(await post(answer)).toEqual({ status: 200, body: { applied: true } });
    // Decided by the answer, not by the timeout default at the 4 s deadline.
    expect((await reply).body.data).toMatchObject({ status: "approved", decisionType: "direct-response" });
    // A repeat (the same answer on decisions.v1 after a lost reply) changes nothing.
    expect(await post(answer)).toEqual({ status: 200, body: { applied: false } });
  });

  it("refuses a post without the internal credential, and a malformed answer with 400", async () => {
    const { as, reply, question } = await askCapture();
    const answer = decisionAnswered(as, question, { body: { action: "approve" } });
    expect((await post(answer, "")).status).toBe(401);
    expect((await post(answer, "x".repeat(40))).status).toBe(401);
    const malformed = await post({ ...answer, data: { ...answer.data, eventId: 42 } });
    expect(malformed.status).toBe(400);
    expect(JSON.stringify(malformed.body)).toMatch(/eventId/);
    // None of them decided it: the timeout default does, at the deadline.
    expect((await reply).body.data).toMatchObject({ status: "declined", statusReason: "timeout-error" });
  }, 15_000);
});
