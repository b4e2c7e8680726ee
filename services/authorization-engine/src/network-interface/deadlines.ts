/**
 * The network waits `timeoutMs` in all (ISO8583_TIMEOUT_MS, 4 s by default) for its answer. The engine's own deadline
 * for a decision — the receiver's window, then the timeout default — is placed inside it, so that the answer the
 * network gets is the engine's decision, the timeout default's included, not a guess:
 *
 *   received ─── receiver's window ───▶ due ── default applied, answer built ──▶ answer by ── in transit ──▶ timeout
 *                                           DECIDE_MARGIN_MS (300)               SEND_MARGIN_MS (250)
 *
 * The window is at most the engine's 4 s (DECISION_WINDOW_MS): the engine's window runs from `arrivedAt`, so the
 * request is handed over as if it had arrived that much earlier. A decision still unknown at the answer deadline is
 * answered 91 (issuer unavailable) and the engine's timeout default decides it as for any request. Pure.
 */
import { DECISION_WINDOW_MS } from "../domain/authorization";

export const SEND_MARGIN_MS = 250;
export const DECIDE_MARGIN_MS = 300;
/** The least timeout that leaves the receiver a window at all (the engine asks only with 250 ms left). */
export const MIN_TIMEOUT_MS = 1_000;

export interface MessageDeadlines {
  /** When the answer must be sent (epoch ms). */
  answerBy: number;
  /** The `arrivedAt` the engine is given: its decision window (4 s from it) ends DECIDE_MARGIN_MS before answerBy. */
  engineArrivedAt: number;
}

export function deadlinesFor(receivedAt: number, timeoutMs: number): MessageDeadlines {
  const answerBy = receivedAt + timeoutMs - SEND_MARGIN_MS;
  const engineArrivedAt = Math.min(receivedAt, answerBy - DECIDE_MARGIN_MS - DECISION_WINDOW_MS);
  return { answerBy, engineArrivedAt };
}
