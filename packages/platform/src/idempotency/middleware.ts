import { createHash } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import type { Db } from "@cardhold/db";
import { AppError } from "../errors";
import { failpoint } from "../failpoints";
import { newId } from "../ids";
import { requestContext } from "../request-context";
import { keyedWork, keyInProgress } from "./in-transaction";
import { claimKey, pruneKeys, renewClaim, settleKey, type Answer, type KeyedRequest } from "./key-store";

export const IDEMPOTENCY_KEY_HEADER = "idempotency-key";
export const REPLAYED_HEADER = "idempotent-replayed";
const WRITES = new Set(["POST", "PUT", "PATCH"]);
const VALID_KEY = /^[\x20-\x7e]{1,255}$/;
const PRUNE_EVERY = 500;
const DEFAULT_LEASE_MS = 10_000;

export interface IdempotencyOptions {
  db: Db;
  schema: string;
  now?: () => number;
  /**
   * How long a claim on a key lasts unless renewed. A running request renews it every third of this; a process that
   * died stops renewing, and a retry takes the key over once it lapses (until then: 409 with Retry-After).
   */
  leaseMs?: number;
  /** Whose key it is: the gateway's internal headers (a service behind it), or what the gateway itself knows. */
  scopeOf?: (req: Request) => KeyedRequest["scope"];
}

/** The Idempotency-Key of a write, checked; undefined when the request has none. */
export function idempotencyKeyOf(req: Request): string | undefined {
  const key = req.header(IDEMPOTENCY_KEY_HEADER);
  if (key === undefined || !WRITES.has(req.method)) return undefined;
  if (!VALID_KEY.test(key))
    throw new AppError(400, "invalid-idempotency-key", "Idempotency-Key must be 1 to 255 printable ASCII characters", [
      { path: "Idempotency-Key", message: "must be 1 to 255 printable ASCII characters" },
    ]);
  return key;
}

const fingerprintOf = (req: Request) =>
  createHash("sha256")
    .update(`${req.method} ${req.originalUrl}\n${JSON.stringify(req.body ?? null)}`)
    .digest("base64url");

const SECRET_ANSWER = "idempotencySecretAnswer";

/**
 * The answer holds a secret (a signing key) that must not be kept in plain text: it is not stored, and a retry with
 * the key runs the request again.
 */
export function answerHoldsSecret(res: Response): void {
  res.locals[SECRET_ANSWER] = true;
}

const sendAnswer = (res: Response, answer: Answer, replayed: boolean) => {
  if (replayed) res.setHeader(REPLAYED_HEADER, "true");
  res.status(answer.status).type("application/json");
  return answer.body;
};

/**
 * Writes with an Idempotency-Key (IETF httpapi draft, as Stripe does it), per business, mode and key for 24 h: a
 * repeat answers the first answer again, a different request with the key 422, a repeat while the first runs 409.
 */
export function idempotentWrites(opts: IdempotencyOptions) {
  const now = opts.now ?? Date.now;
  const leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
  let claims = 0;
  return async (req: Request, res: Response, next: NextFunction) => {
    const key = idempotencyKeyOf(req);
    if (key === undefined) return next();
    const keyed: KeyedRequest = {
      schema: opts.schema,
      scope: (opts.scopeOf ?? requestContext)(req),
      key,
      fingerprint: fingerprintOf(req),
    };
    if (++claims % PRUNE_EVERY === 0) void pruneKeys(opts.db, opts.schema, now()).catch(() => undefined);
    const outcome = await claimKey(opts.db, keyed, newId("request"), now(), leaseMs);
    if (outcome.kind === "replay") return void res.send(sendAnswer(res, outcome.answer, true));
    if (outcome.kind === "in-progress") {
      res.setHeader("retry-after", Math.max(1, Math.ceil(outcome.retryAfterMs / 1000)));
      throw keyInProgress();
    }
    if (outcome.kind === "mismatch")
      throw new AppError(
        422,
        "idempotency-key-reused",
        "This Idempotency-Key was used with a different request (method, path or body)",
      );
    const renewal = setInterval(() => {
      void renewClaim(opts.db, keyed, outcome.claim, new Date(now() + leaseMs)).catch(() => undefined);
    }, leaseMs / 3);
    renewal.unref();
    res.once("close", () => clearInterval(renewal));
    settleOnAnswer(opts.db, keyed, outcome.claim, res);
    keyedWork.run({ ...keyed, claim: outcome.claim, prior: outcome.prior }, next);
  };
}

/** Before the answer leaves: records it with the key (unless the work recorded its own, which is then sent). */
function settleOnAnswer(db: Db, keyed: KeyedRequest, claim: string, res: Response) {
  const send = res.send;
  let settled = false;
  res.send = function settleThenSend(this: Response, body?: unknown) {
    if (settled) return send.call(this, body);
    settled = true;
    failpoint("idempotent-write:before-answer");
    const text = typeof body === "string" ? body : Buffer.isBuffer(body) ? body.toString("utf8") : JSON.stringify(body);
    const keep = res.statusCode < 500 && !res.locals[SECRET_ANSWER];
    const answer = keep ? { status: res.statusCode, body: text } : undefined;
    settleKey(db, keyed, claim, answer).then(
      (kept) => send.call(this, kept ? sendAnswer(res, kept, false) : body),
      () => send.call(this, body),
    );
    return this;
  };
}
