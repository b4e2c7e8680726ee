import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENTS_INTAKE_PATH, type EventPublishedMessage, type PostedEvent } from "@cardhold/contracts";
import { eventually } from "../../../test/support/eventually";
import { recordingServer, type RecordingServer } from "../../../test/support/recording-server";
import { answerDecision, call, INTERNAL, issueCard, newBusiness, startEngine, type EngineHarness } from "./harness";

let h: EngineHarness;
/** A dispatcher's intake as the engine's relay sees it: records each post, answers with `status`. */
let dispatcher: RecordingServer<PostedEvent[]>;

beforeAll(async () => {
  dispatcher = await recordingServer<PostedEvent[]>();
  h = await startEngine({ eventsTo: dispatcher.url, sweeperGraceMs: 50 });
});

afterAll(async () => {
  await h?.stop();
  await dispatcher.close();
});

const envelopeOf = (e: PostedEvent) => (e.value as unknown as EventPublishedMessage).data.envelope;
const postedOf = (authorizationId: string) =>
  dispatcher.received.flatMap((p) => p.body).filter((e) => e.key === authorizationId);
const onBusOf = (authorizationId: string) =>
  h.events.filter(
    (e) =>
      (e.data as { id?: string; authorization?: string }).id === authorizationId ||
      (e.data as { authorization?: string }).authorization === authorizationId,
  );

/** A capture the network sends; its authorization id, from the decision event that reached either way. */
async function capture() {
  const as = newBusiness();
  const card = await issueCard(h, as);
  const reply = call(h, as, "POST", `/simulation/cards/${card.cardId}/request-authorization/capture`, {
    amount: 1_000,
    channel: "online",
  });
  let question: ReturnType<typeof envelopeOf> | undefined;
  await eventually(() => {
    const isQuestion = (e: { event: string; data: Record<string, unknown> }) =>
      e.event === "card.authorization.request" && e.data.card === card.cardId;
    question =
      dispatcher.received
        .flatMap((p) => p.body)
        .map(envelopeOf)
        .find(isQuestion) ?? h.events.find(isQuestion);
    expect(question).toBeDefined();
  });
  return { as, reply, question: question!, authorizationId: (question!.data as { id: string }).id };
}

describe("the engine's events straight to a dispatcher (EVENT_DISPATCHER_URL)", () => {
  it("posts an authorization's question with the internal credential, then its closing and transaction, none on events.v1", async () => {
    dispatcher.status = 200;
    const { as, reply, question, authorizationId } = await capture();
    const [first] = dispatcher.received.filter((p) => p.body.some((e) => e.key === authorizationId));
    expect(first!.path).toBe(EVENTS_INTAKE_PATH);
    expect(first!.headers["x-internal-token"]).toBe(INTERNAL);
    expect(first!.body.find((e) => e.key === authorizationId)!.headers["opens-key"]).toBe("1");
    await answerDecision(h, as, question, { body: { action: "approve" } });
    expect((await reply).body.data.status).toBe("approved");
    await eventually(() =>
      expect(postedOf(authorizationId).map((e) => envelopeOf(e).event)).toEqual([
        "card.authorization.request",
        "card.authorization.closed",
        "card.transaction.created",
      ]),
    );
    expect(onBusOf(authorizationId)).toEqual([]);
  });

  it("sends on events.v1 what the dispatcher refused, and the authorization's later events after it, in order", async () => {
    dispatcher.status = 500;
    const { as, reply, question, authorizationId } = await capture();
    await eventually(() =>
      expect(onBusOf(authorizationId).map((e) => e.event)).toEqual(["card.authorization.request"]),
    );
    dispatcher.status = 200;
    await answerDecision(h, as, question, { body: { action: "approve" } });
    expect((await reply).body.data.status).toBe("approved");
    await eventually(() =>
      expect(onBusOf(authorizationId).map((e) => e.event)).toEqual([
        "card.authorization.request",
        "card.authorization.closed",
        "card.transaction.created",
      ]),
    );
    // Only the refused question was ever posted: the closing must not overtake it on the other way.
    expect(postedOf(authorizationId).map((e) => envelopeOf(e).event)).toEqual(["card.authorization.request"]);
  });
});
