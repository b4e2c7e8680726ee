import { AsyncLocalStorage } from "node:async_hooks";
import type { Queryable } from "@cardhold/db";
import { AppError } from "../errors";
import { writeUnderClaim, type KeyedRequest } from "./key-store";

export interface KeyedWork extends KeyedRequest {
  claim: string;
  /** What the use-case recorded with its effect when an earlier request with this key took effect and then died. */
  prior: unknown;
}

/** The keyed request this code runs for, set by idempotentWrites around the route. */
export const keyedWork = new AsyncLocalStorage<KeyedWork>();

export const keyInProgress = () =>
  new AppError(409, "idempotency-key-in-progress", "A request with this Idempotency-Key is still under way");

async function write(tx: Queryable, set: "answer" | "effect", values: unknown[]): Promise<void> {
  const work = keyedWork.getStore();
  if (!work) return;
  // Another request took the key over: this one's effect must not commit beside it.
  if (!(await writeUnderClaim(tx, work, work.claim, set, values))) throw keyInProgress();
}

/**
 * Call inside the transaction of the request's effect: its answer commits with the effect, so a client retrying after
 * this process died between the commit and the answer is answered with it, and nothing is done twice. The route must
 * answer the same status and body (idempotentWrites sends the recorded answer once the transaction has committed).
 */
export function recordIdempotentAnswer(tx: Queryable, status: number, body: unknown): Promise<void> {
  return write(tx, "answer", [status, JSON.stringify(body)]);
}

/**
 * For an answer only known after the transaction (it waits for an outcome): records, with the effect, what the answer
 * is rebuilt from. A retry after a crash finds it in `priorIdempotentEffect()` and answers from it instead of acting.
 */
export function recordIdempotentEffect(tx: Queryable, effect: Record<string, unknown>): Promise<void> {
  return write(tx, "effect", [JSON.stringify(effect)]);
}

/** What an earlier request with this key recorded with its effect before it died, if it did. */
export function priorIdempotentEffect<T>(): T | undefined {
  return (keyedWork.getStore()?.prior ?? undefined) as T | undefined;
}
