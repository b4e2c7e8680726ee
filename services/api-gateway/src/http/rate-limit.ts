import type { NextFunction, Request, Response } from "express";
import { AppError } from "@cardhold/platform";
import { remaining, secondsUntilFull } from "../domain/token-bucket";
import type { Decision, PolicyState, RateLimiter } from "../rate-limiter";

/**
 * The card network's side (test mode: the simulation endpoints) is never limited by a tenant's API traffic: the
 * authorization engine admits it by its own measure (AUTHORIZATION_MAX_IN_PROGRESS, AUTHORIZATION_MAX_QUEUED_MS).
 */
const EXEMPT_SEGMENTS = new Set(["simulation"]);

export const isRateLimited = (path: string): boolean => !EXEMPT_SEGMENTS.has(path.split("/")[1] ?? "");

/** draft-ietf-httpapi-ratelimit-headers-10, structured-field lists: the policy (q per w seconds) and its state. */
const policyField = (p: PolicyState) => `"${p.policy}";q=${p.limit.rate};w=1`;
const stateField = (p: PolicyState) => `"${p.policy}";r=${remaining(p.state)};t=${secondsUntilFull(p.state, p.limit)}`;

function setHeaders(res: Response, decision: Decision) {
  res.setHeader("RateLimit-Policy", decision.policies.map(policyField).join(", "));
  res.setHeader("RateLimit", decision.policies.map(stateField).join(", "));
}

function refusal(decision: Decision): AppError {
  const empty = decision.policies.filter((p) => p.state.tokens < 1).map((p) => p.policy);
  return new AppError(
    429,
    "rate-limited",
    `Too many requests (${empty.join(" and ")} limit): try again in ${decision.retryAfter} s`,
  );
}

/** After authentication: takes a token from the key's and the business's bucket, or answers 429. */
export function rateLimit(limiter: RateLimiter) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!isRateLimited(req.path)) return next();
    const decision = limiter.admit(req.caller!, Date.now());
    setHeaders(res, decision);
    if (!decision.admitted) {
      res.setHeader("Retry-After", String(decision.retryAfter));
      throw refusal(decision);
    }
    next();
  };
}
