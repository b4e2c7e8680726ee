/**
 * One network message in, its answer out: network management (0800) at once; a transaction message by its card (the
 * PAN decides the business and mode), answered as before when it is a repeat, else carried out and its answer kept.
 */
import { newId } from "@cardhold/platform";
import type { Scope } from "@cardhold/query";
import { INTERFACE_RESPONSE_CODES } from "../domain/network-response-codes";
import { recordAnswer } from "../store/network-messages.store";
import type { PanCard } from "../store/card-pans.store";
import { answerTo, type Answer } from "./answers";
import { authorize, recordAdvice } from "./authorization-messages";
import { findCardByPan } from "./card-by-pan";
import { deadlinesFor } from "./deadlines";
import type { IsoMessage } from "./iso8583/packer";
import { found, type MessageContext, type Outcome } from "./message-context";
import { channelOf, flowOf, type Flow } from "./message-flows";
import {
  answerMtiOf,
  classOf,
  FormatError,
  keyOf,
  maskPan,
  NETWORK_MANAGEMENT_CODES,
  readTransaction,
  type TransactionMessage,
} from "./messages";
import { reverseOriginal } from "./reversal-messages";

const code = (what: keyof typeof INTERFACE_RESPONSE_CODES): Answer => ({ code: INTERFACE_RESPONSE_CODES[what] });

/** 0800: sign-on (001), sign-off (002), echo (301) are acknowledged; a request before a sign-on is answered too. */
function networkManagement(ctx: MessageContext, message: IsoMessage): Answer {
  const function70 = message.fields[70];
  if (typeof function70 !== "string") return code("format-error");
  const known = NETWORK_MANAGEMENT_CODES[function70 as keyof typeof NETWORK_MANAGEMENT_CODES];
  if (!known) return code("invalid-transaction");
  if (known !== "echo") ctx.logger.info({ code: function70 }, `network ${known}`);
  return code("accepted");
}

/** What a message asked, for engine.network_messages: the PAN masked, no CVV2, no expiry. */
const requestSummary = (m: TransactionMessage) => ({
  pan: maskPan(m.pan),
  processingCode: m.processingCode,
  amount: m.amount,
  fee: m.fee,
  currency: m.currency,
  channel: channelOf(m),
  mcc: m.mcc,
  merchantId: m.merchantId,
  cardAcceptorNameLocation: m.cardAcceptorNameLocation,
  adviceResponseCode: m.adviceResponseCode,
  original: m.original,
  replacement: m.replacement,
});

function carryOut(
  ctx: MessageContext,
  m: TransactionMessage,
  flow: Exclude<Flow, { kind: "unsupported" }>,
  card: PanCard,
  receivedAt: number,
): Promise<Outcome> {
  const times = { receivedAt, ...deadlinesFor(receivedAt, ctx.timeoutMs) };
  switch (flow.kind) {
    case "authorize":
      return authorize(ctx, m, flow.type, card, times);
    case "advice":
      return recordAdvice(ctx, m, card);
    case "reverse":
    case "lower-amount":
      return reverseOriginal(ctx, m, flow, card, times);
  }
}

async function answerTransaction(ctx: MessageContext, m: TransactionMessage, receivedAt: number): Promise<Answer> {
  const flow = flowOf(m);
  const pan = maskPan(m.pan);
  if (flow.kind === "unsupported") {
    ctx.logger.info({ mti: m.mti, stan: m.stan, pan, why: flow.why }, "network message not supported: answered 12");
    return code("invalid-transaction");
  }
  const key = keyOf(m);
  const card = await findCardByPan<Answer>(ctx, { pan: m.pan, expiry: m.expiry, maskedPan: pan, key });
  if (!card) return code("unknown-card");
  const scope: Scope = { businessId: card.business_id, mode: card.mode };
  const before = card.earlier_answer;
  if (before) {
    ctx.logger.info(
      { mti: m.mti, stan: m.stan, pan, code: before.code },
      "repeated network message: answered as before",
    );
    return before;
  }
  const done = await carryOut(ctx, m, flow, card, receivedAt);
  if (!done.final) return done.answer;
  return recordAnswer<Answer>(ctx.db, scope, {
    key,
    mti: m.mti,
    cardId: card.id,
    authorizationId: done.authorizationId,
    request: requestSummary(m),
    response: done.answer,
    receivedAt: new Date(receivedAt),
  });
}

/**
 * The answer to `message` (received at `receivedAt`), or undefined for a message that is itself an answer. Never
 * throws: what cannot be read is answered 30, what fails is answered 96 and logged with an error id.
 */
export async function answerMessage(
  ctx: MessageContext,
  message: IsoMessage,
  receivedAt: number,
): Promise<IsoMessage | undefined> {
  if (answerMtiOf(message.mti) === undefined) {
    ctx.logger.warn({ mti: message.mti }, "network message that is an answer, not a request: ignored");
    return undefined;
  }
  if (message.mti.startsWith("080")) return answerTo(message, networkManagement(ctx, message));
  const messageClass = classOf(message.mti);
  if (!messageClass) return answerTo(message, code("invalid-transaction"));
  try {
    return answerTo(message, await answerTransaction(ctx, readTransaction(message, messageClass), receivedAt));
  } catch (error) {
    if (error instanceof FormatError) {
      ctx.logger.info({ mti: message.mti, field: error.field }, "network message malformed: answered 30");
      return answerTo(message, code("format-error"));
    }
    const errorId = newId("request").replace("req.", "err.");
    ctx.logger.error({ err: error, errorId, mti: message.mti }, "network message failed: answered 96");
    return answerTo(message, found("system-malfunction").answer);
  }
}
