/** What answering a network message needs, and what carrying one out comes to. */
import type { Db } from "@cardhold/db";
import type { Logger } from "pino";
import type { Admission } from "@cardhold/platform";
import type { DecisionWaiters } from "../authorizations/decision-waiters";
import type { NetworkContext } from "../authorizations/network-requests";
import type { CardVault } from "../cards/card-vault";
import { INTERFACE_RESPONSE_CODES, type InterfaceOutcome } from "../domain/network-response-codes";
import type { Answer } from "./answers";

export interface MessageContext {
  db: Db;
  vault: CardVault;
  logger: Logger;
  waiters: DecisionWaiters;
  admission: Admission;
  /** How long the network waits for an answer in all (ISO8583_TIMEOUT_MS). */
  timeoutMs: number;
  now?: () => number;
  /** This process's address for answers to its decision events (NetworkContext.answerTo). */
  answerTo?: string;
}

/** What a message came to: the answer, the authorization it concerns, and whether a repeat gets the same answer. */
export interface Outcome {
  answer: Answer;
  authorizationId: string | null;
  /**
   * Kept for the message's repeats (engine.network_messages). Not kept: a reversal answered 25 or 91 — its original
   * may still come, or be decided — so that the network's repeat of it is carried out then.
   */
  final: boolean;
}

export const outcome = (answer: Answer, authorizationId: string | null = null, final = true): Outcome => ({
  answer,
  authorizationId,
  final,
});

/** An answer the interface gives without a decision (INTERFACE_RESPONSE_CODES). */
export const found = (what: InterfaceOutcome, authorizationId: string | null = null, final = true): Outcome =>
  outcome({ code: INTERFACE_RESPONSE_CODES[what] }, authorizationId, final);

/**
 * The engine's context for one message: admission refuses by when the message really reached the platform, not by
 * the earlier `arrivedAt` the engine is given to end its decision window in time (deadlines.ts).
 */
export function engineContextFor(ctx: MessageContext, receivedAt: number): NetworkContext {
  const { admission } = ctx;
  return {
    db: ctx.db,
    now: ctx.now,
    admission: { ...admission, ensureInTime: (_arrivedAt, now) => admission.ensureInTime(receivedAt, now) },
  };
}

export const nowOf = (ctx: MessageContext) => ctx.now?.() ?? Date.now();
