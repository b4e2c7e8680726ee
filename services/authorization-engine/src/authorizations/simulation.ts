import {
  simulateCaptureSchema,
  simulateCheckSchema,
  simulateReverseSchema,
  simulateUpdateSchema,
} from "@cardhold/contracts";
import { notFound, priorIdempotentEffect, validate } from "@cardhold/platform";
import type { Scope } from "@cardhold/query";
import { DECISION_WINDOW_MS } from "../domain/authorization";
import { findAuthorization, type AuthorizationRow } from "../store/authorizations.store";
import type { DecisionWaiters } from "./decision-waiters";
import {
  requestAmountChange,
  requestAuthorization,
  requestReversal,
  type NetworkContext,
  type NetworkRequest,
} from "./network-requests";

export interface SimulationContext extends NetworkContext {
  waiters: DecisionWaiters;
  /** How long past the decision window the sweeper waits (see deadline-sweeper.ts); the request waits a bit longer. */
  sweeperGraceMs: number;
}

/**
 * The test-mode simulation endpoints play the card network: each sends a request into the real authorization flow
 * and answers with the authorization once it is decided, as a network waits for its answer.
 */
export function simulation(ctx: SimulationContext) {
  const decided = (scope: Scope, row: AuthorizationRow) =>
    ctx.waiters.until(scope, row, DECISION_WINDOW_MS + ctx.sweeperGraceMs + 5_000);
  /** A new authorization, admitted (load shedding, places shared per business) from its request until it is decided. */
  const authorize = (scope: Scope, cardId: string, type: "check" | "capture", request: NetworkRequest) => {
    const take = async () => decided(scope, await requestAuthorization(ctx, scope, cardId, type, request));
    // This Idempotency-Key's authorization was taken by a request that died before answering: answer with it.
    const prior = priorIdempotentEffect<{ authorization: string }>();
    if (prior) return answerWith(scope, prior.authorization);
    return ctx.admission ? ctx.admission.admit(request.arrivedAt, take, scope.businessId) : take();
  };

  const answerWith = async (scope: Scope, id: string) => {
    const row = await findAuthorization(ctx.db, scope, id);
    if (!row) throw notFound("Card authorization", id);
    return decided(scope, row);
  };

  /** The approved capture to change or reverse: the one named (it must be this card's), or a new one. */
  const captureFirst = async (
    scope: Scope,
    cardId: string,
    body: Omit<NetworkRequest, "amount"> & { amount?: number; authorization?: string },
  ) => {
    if (!body.authorization) return authorize(scope, cardId, "capture", { ...body, amount: body.amount! });
    const existing = await findAuthorization(ctx.db, scope, body.authorization);
    if (!existing || existing.card_id !== cardId) throw notFound("Card authorization", body.authorization);
    return existing;
  };

  return {
    /** `arrivedAt`: when the network's request reached the platform; its 4-second window runs from there. */
    async check(scope: Scope, cardId: string, body: unknown, arrivedAt?: number) {
      const request = validate(simulateCheckSchema, body);
      return authorize(scope, cardId, "check", { ...request, amount: 0, fees: 0, arrivedAt });
    },
    async capture(scope: Scope, cardId: string, body: unknown, arrivedAt?: number) {
      const request = validate(simulateCaptureSchema, body);
      return authorize(scope, cardId, "capture", { ...request, arrivedAt });
    },
    /** Capture (unless an approved authorization is named), then change its amount; a capture not approved stays as it is. */
    async updateCapture(scope: Scope, cardId: string, body: unknown, arrivedAt?: number) {
      const request = validate(simulateUpdateSchema, body);
      const capture = await captureFirst(scope, cardId, { ...request, arrivedAt });
      if (!request.authorization && capture.status !== "approved") return capture;
      const update = { amount: request.updateAmount, fees: request.updateFees };
      return decided(
        scope,
        await requestAmountChange(ctx, scope, capture.id, update, request.authorization ? arrivedAt : undefined),
      );
    },
    /** Capture (unless an approved authorization is named), then reverse it; a capture not approved stays as it is. */
    async reverseCapture(scope: Scope, cardId: string, body: unknown) {
      const request = validate(simulateReverseSchema, body);
      const capture = await captureFirst(scope, cardId, request);
      if (!request.authorization && capture.status !== "approved") return capture;
      return requestReversal(ctx, scope, capture.id);
    },
  };
}
