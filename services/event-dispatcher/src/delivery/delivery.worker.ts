import type { Logger } from "pino";
import { createPollingWorker, enqueue, outboxInsert, type OutboxRelay, type OutgoingMessage } from "@cardhold/bus";
import { TOPICS, type DecisionAnsweredMessage, type Mode } from "@cardhold/contracts";
import type { Db, Queryable } from "@cardhold/db";
import { parseJsonWithin } from "@cardhold/platform";
import { isDelivered, MIN_DECISION_WINDOW_MS, sendTimeoutMs, waitedUntilDeadline } from "../domain/delivery-policy";
import { nextAttemptAt, parseRetryAfter, type RetrySchedule } from "../domain/retry-schedule";
import { previousKeySigns } from "../domain/signature";
import {
  claimDueDeliveries,
  failExpiredDecisions,
  reclaimExpiredNotifications,
  recordAttempt,
  releaseClaim,
  type AttemptOutcome,
  type ClaimedDelivery,
  type ClaimLimits,
  type NextStep,
  type RecordedAttempt,
} from "../store/deliveries.store";
import { NO_ROOM, refreshEventStatus, type InsertClaim } from "../store/events.store";
import { createQueueVacuum, type QueueVacuumOptions } from "../store/queue-vacuum";
import { SCHEMA } from "../store/webhooks.store";
import type { AnswerReturn } from "./answer-return";
import { createAttemptRecorder } from "./attempt-recorder";
import { eventTraces } from "./event-traces";
import { dispatcherFor, sendSigned, type DeliverySigning, type SendResult } from "./send";
import { createSendLanes, FAST_ANSWER_MS, type Chain, type ChainOutcome } from "./send-lanes";
import type { SigningKeys } from "./signing-keys";

export interface DeliveryWorkerOptions {
  db: Db;
  logger: Logger;
  relay: Pick<OutboxRelay, "committed">;
  schedule: RetrySchedule;
  /** Opens the sealed signing keys of the routing table (cached per webhook and version). */
  signingKeys: SigningKeys;
  /** Sends under way at once, in all. */
  maxInFlight?: number;
  /**
   * Notifications under way at once to one webhook at most, so a slow receiver cannot take every slot: a webhook starts
   * with 8 and gets one more per fast answer, half as many after trouble (decisions to one webhook: this or half of
   * maxInFlight, whichever is more).
   */
  maxInFlightPerWebhook?: number;
  pollMs?: number;
  /** How long a claimed delivery is ours; after a crash it is picked up again once this expires. */
  claimMs?: number;
  /** Live-mode deliveries may connect to private, loopback … addresses (on-premise receivers); off by default. */
  allowPrivateTargets?: boolean;
  /** Counts decision events answered `platform-overloaded` without being sent (a metric). */
  onDecisionNotSent?: () => void;
  /** When the worker vacuums the deliveries table (see queue-vacuum). */
  queueVacuum?: QueueVacuumOptions;
  /** How often claims that ran out (a stopped dispatcher's, or sends that outlived them) are given back. */
  reclaimMs?: number;
  /** Posts an answer straight back to the engine that asked (the event's answer_to); none: decisions.v1 only. */
  answerReturn?: Pick<AnswerReturn, "post">;
}

/**
 * Alone on its database (ServiceDeps.soleInstance), every delivery is stored by this process, which claims it as it
 * stores it or wakes the worker: the poll only finds retries falling due (seconds apart) and claims that ran out.
 */
export const SOLE_INSTANCE_POLLS = { pollMs: 1_000, reclaimMs: 5_000 } as const;

export interface DeliveryWorker {
  start(): void;
  wake(): void;
  /** The room for new sends now, for a claim made where deliveries are stored (insertEventsWithDeliveries). */
  room(): InsertClaim;
  /** Sends deliveries claimed elsewhere (at insert) as if this worker had claimed them; a resource's in order. */
  take(claimed: ClaimedDelivery[]): Promise<void>;
  stop(): Promise<void>;
}

type DecisionAbout = {
  eventId: string;
  resourceId: string;
  webhookId: string | null;
  businessId: string;
  mode: string;
};
type DecisionAnswer = Pick<DecisionAnsweredMessage["data"], "httpStatus" | "body" | "latencyMs" | "error">;

/**
 * Decision answers (or why none came) go to the authorization engine on decisions.v1, through the outbox; the common
 * one, the receiver's answer, is posted to the engine that asked first (answer-return.ts).
 */
function decisionAnswered(
  d: DecisionAbout,
  answer: DecisionAnswer,
): OutgoingMessage & { value: DecisionAnsweredMessage } {
  const value: DecisionAnsweredMessage = {
    type: "decision.answered",
    businessId: d.businessId,
    mode: d.mode as Mode,
    occurredAt: new Date().toISOString(),
    data: { eventId: d.eventId, resourceId: d.resourceId, webhookId: d.webhookId, ...answer },
  };
  return { topic: TOPICS.decisions, key: d.resourceId, value };
}

export async function enqueueDecision(tx: Queryable, d: DecisionAbout, answer: DecisionAnswer): Promise<void> {
  await enqueue(tx, SCHEMA, [decisionAnswered(d, answer)]);
}

/** What a decision's answer is about: the delivery's event, resource, webhook, business and mode. */
const aboutOf = (
  d: Pick<ClaimedDelivery, "event_id" | "resource_id" | "webhook_id" | "business_id" | "mode">,
): DecisionAbout => ({
  eventId: d.event_id,
  resourceId: d.resource_id,
  webhookId: d.webhook_id,
  businessId: d.business_id,
  mode: d.mode,
});

/** The answer to a decision that nothing was heard for, and why. */
const noAnswer = (error: DecisionAnswer["error"]): DecisionAnswer => ({
  httpStatus: null,
  body: null,
  latencyMs: null,
  error,
});

type Heard = Pick<AttemptOutcome, "url" | "httpStatus" | "latencyMs" | "responseExcerpt" | "error">;

/** The delivery's attempt begun at `startedAt`, with what was heard of it. */
const attemptOf = (c: ClaimedDelivery, startedAt: Date, heard: Heard): AttemptOutcome => ({
  deliveryId: c.id,
  eventId: c.event_id,
  businessId: c.business_id,
  mode: c.mode,
  attemptNo: c.attempts,
  trigger: c.trigger,
  startedAt,
  ...heard,
});

/** An attempt that sent nothing, and why. */
const unsentAttempt = (c: ClaimedDelivery, startedAt: Date, url: string, error: string): AttemptOutcome =>
  attemptOf(c, startedAt, { url, httpStatus: null, latencyMs: null, responseExcerpt: null, error });

/**
 * Claims and attempt records commit without waiting for the disk: a crash that loses one only makes the delivery due
 * again (a notification is sent again; a decision is answered `dispatcher-restarted` and the engine's durable
 * deadline decides), which at-least-once delivery allows anyway.
 */
const BOOKKEEPING = { durable: false } as const;

/** What an attempt keeps of the receiver's answer: its first 1 KiB, without NUL (which PostgreSQL text cannot hold). */
const excerptOf = (body: string | null) => body?.slice(0, 1024).replaceAll("\u0000", "") ?? null;

/** The receiver's answer as JSON, or null when it is not JSON or nests too deep to pass on safely. */
const parseJson = (text: string | null) => (text === null ? null : (parseJsonWithin(text) ?? null));

/** After a notification's attempt: delivered, due again per the retry schedule, or failed once it is spent. */
function nextStepAfter(c: ClaimedDelivery, startedAt: Date, result: SendResult, schedule: RetrySchedule): NextStep {
  if (isDelivered(result.httpStatus)) return { status: "delivered" };
  const now = Date.now();
  const at = nextAttemptAt(
    {
      attemptNo: c.attempts,
      firstAttemptAt: (c.first_attempt_at ?? startedAt).getTime(),
      now,
      httpStatus: result.httpStatus ?? undefined,
      timedOut: result.error === "timeout",
      retryAfterMs: parseRetryAfter(result.retryAfter, now),
    },
    schedule,
  );
  return at === undefined ? { status: "failed" } : { status: "pending", at: new Date(at) };
}

/** Notifications claimed ahead of a free slot, as a multiple of a webhook's notification slots (see send-lanes). */
const NOTIFICATION_PREFETCH = 8;

export const DEFAULT_MAX_IN_FLIGHT = 256;
export const DEFAULT_MAX_IN_FLIGHT_PER_WEBHOOK = 64;
/** A webhook's notification window to begin with (it grows while the receiver answers fast; see send-lanes). */
const START_PER_WEBHOOK = 8;

type ClaimedChain = Chain & { deliveries: ClaimedDelivery[]; claimedAt: number };

/** At most this many notifications of one resource are claimed together as they are stored (a chain). */
const MAX_CHAIN = 4;

/** Deliveries claimed together, grouped per webhook and resource, each group in the order it was given. */
function chainsOf(claimed: ClaimedDelivery[]): ClaimedDelivery[][] {
  const chains = new Map<string, ClaimedDelivery[]>();
  for (const c of claimed) {
    const key = `${c.webhook_id} ${c.resource_id}`;
    const chain = chains.get(key);
    if (chain) chain.push(c);
    else chains.set(key, [c]);
  }
  return [...chains.values()];
}

/** Whether a claim took all the room of one of its lanes (so more of that lane may be due). */
function filledLane(claimed: ClaimedDelivery[], limits: ClaimLimits): boolean {
  const taken = new Map<string, number>();
  for (const c of claimed)
    taken.set(`${c.policy} ${c.webhook_id}`, (taken.get(`${c.policy} ${c.webhook_id}`) ?? 0) + 1);
  return [...taken].some(([key, n]) => {
    const [policy, webhookId] = key.split(" ") as [string, string];
    const busy = limits.busy.find((b) => b.webhookId === webhookId && b.policy === policy);
    return n >= (busy?.room ?? (policy === "decision" ? limits.perWebhookDecisions : limits.perWebhookNotifications));
  });
}

/** Prepare (claim, look up the webhook) → send signed → record the attempt → schedule the next one or finish. */
export function createDeliveryWorker(opts: DeliveryWorkerOptions): DeliveryWorker {
  const { db, logger, relay, schedule } = opts;
  const lanes = createSendLanes<ClaimedChain>({
    maxInFlight: opts.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT,
    perWebhook: opts.maxInFlightPerWebhook ?? DEFAULT_MAX_IN_FLIGHT_PER_WEBHOOK,
    startPerWebhook: START_PER_WEBHOOK,
    prefetch: NOTIFICATION_PREFETCH,
  });
  const pollMs = opts.pollMs ?? 250;
  const claimMs = opts.claimMs ?? 30_000;
  const reclaimMs = opts.reclaimMs ?? 1_000;
  const inFlight = new Set<Promise<void>>();
  let lastReclaim = 0;
  /**
   * The last claim left due deliveries behind (no slot for them, or waiting behind one under way of their resource):
   * a finished send should claim again at once. Otherwise new work wakes the worker itself, or the poll finds it.
   */
  let leftWork = false;
  const attempts = createAttemptRecorder(db, logger);
  const vacuum = createQueueVacuum(db, logger, opts.queueVacuum);

  /**
   * The attempt, the delivery's next step and the event's status; a decision's answer goes out with them. `held`: a
   * chain's sole-notification attempts not written yet (see deliverChain); this one joins them, or they are written
   * before it.
   */
  const record = async (
    c: ClaimedDelivery,
    url: string,
    startedAt: Date,
    result: SendResult,
    held?: RecordedAttempt[],
  ) => {
    const attempt = attemptOf(c, startedAt, {
      url,
      httpStatus: result.httpStatus,
      latencyMs: result.latencyMs,
      responseExcerpt: excerptOf(result.body),
      error: result.errorDetail,
    });
    const sole = c.event_deliveries === 1;
    // The common cases: notifications written together (group commit), a decision in one statement with its answer.
    if (c.policy === "notification" && sole) {
      const recorded = { attempt, next: nextStepAfter(c, startedAt, result, schedule) };
      if (held) held.push(recorded);
      else await attempts.record([recorded]);
      return;
    }
    await writeHeld(held);
    const about = aboutOf(c);
    const answer = {
      httpStatus: result.httpStatus,
      body: parseJson(result.body),
      latencyMs: result.latencyMs,
      error: result.error,
    };
    // No answer by the deadline: the engine's own timeout default is the decision; an answer `timeout` would be a
    // second locking transaction per authorization, queued beside the answers still in time while a receiver stalls.
    const engineDefaultDecides =
      result.error === "timeout" && waitedUntilDeadline(c.policy, c.answer_by, startedAt.getTime());
    if (sole) {
      const message = engineDefaultDecides ? undefined : decisionAnswered(about, answer);
      const returned = message && c.answer_to && opts.answerReturn?.post(c.answer_to, message.value);
      const answered = message && !(await returned) ? outboxInsert(SCHEMA, [message], 16) : undefined;
      await recordAttempt(
        { query: db.bookkeeping },
        attempt,
        { status: isDelivered(result.httpStatus) ? "delivered" : "failed" },
        true,
        answered,
      );
      if (answered) relay.committed(answered);
      return;
    }
    await db.tx(async (tx) => {
      if (c.policy === "decision") {
        await recordAttempt(tx, attempt, { status: isDelivered(result.httpStatus) ? "delivered" : "failed" });
        if (!engineDefaultDecides) await enqueueDecision(tx, about, answer);
      } else await recordAttempt(tx, attempt, nextStepAfter(c, startedAt, result, schedule));
      await refreshEventStatus(tx, c.event_id);
    }, BOOKKEEPING);
  };

  /**
   * One delivery: sent and recorded. How it went: fast or slow when the receiver took it (the next of its resource may
   * go), trouble when it did not, unknown when it was not sent.
   */
  const deliver = (
    c: ClaimedDelivery,
    answered?: (outcome: ChainOutcome) => void,
    held?: RecordedAttempt[],
  ): Promise<ChainOutcome> =>
    eventTraces.run(
      c.event_id,
      `deliver ${c.policy}`,
      { "cardhold.event.id": c.event_id, "cardhold.delivery.id": c.id },
      () => deliverNow(c, answered, held),
      c.traceparent ? { traceparent: c.traceparent } : undefined,
    );

  /** The keys a delivery is signed with now: the current one, and the one a roll replaced while its grace lasts. */
  const signingOf = (c: ClaimedDelivery, sealedSigningKey: string): DeliverySigning => {
    const previous = c.sealed_previous_signing_key;
    const previousSigns = previous !== null && previousKeySigns(c.previous_signing_key_expires_at, Date.now());
    return {
      signingKey: opts.signingKeys.open(c.webhook_id, sealedSigningKey),
      previousSigningKey: previousSigns ? opts.signingKeys.open(c.webhook_id, previous, "previous") : undefined,
      extraSignatureHeaders: c.signature_headers ?? [],
    };
  };

  const deliverNow = async (
    c: ClaimedDelivery,
    answered?: (outcome: ChainOutcome) => void,
    held?: RecordedAttempt[],
  ): Promise<ChainOutcome> => {
    const startedAt = new Date();
    if (!c.url || !c.sealed_signing_key) {
      await writeHeld(held);
      await failWebhookGone(c, startedAt);
      return "unknown";
    }
    const timeout = sendTimeoutMs(c.policy, c.answer_by, startedAt.getTime());
    if (timeout === undefined) {
      await writeHeld(held);
      await answerOverloaded(c, startedAt);
      return "unknown";
    }
    const dispatcher = dispatcherFor(c.mode, opts.allowPrivateTargets ?? false);
    const result = await sendSigned(
      c.url,
      c.envelope,
      signingOf(c, c.sealed_signing_key),
      c.event_id,
      timeout,
      dispatcher,
    );
    const outcome = !isDelivered(result.httpStatus) ? "trouble" : result.latencyMs <= FAST_ANSWER_MS ? "fast" : "slow";
    answered?.(outcome);
    await record(c, c.url, startedAt, result, held);
    return outcome;
  };

  /** Writes a chain's held attempts (one unit: all or none), before anything recorded after them. */
  const writeHeld = async (held: RecordedAttempt[] | undefined) => {
    if (held && held.length > 0) await attempts.record(held.splice(0));
  };

  /**
   * A chain: deliveries of one resource to one webhook claimed together, sent in order, each once the receiver took
   * the one before it. Their attempts are held and written together when the chain stops, in one statement: all or
   * none, so a failed write makes the whole chain due again, in order (a receiver never gets an earlier event again
   * after a later one was recorded delivered). What is left when one is not delivered (it waits for its retry), or when
   * half the claim is spent (a later send could outlive it), is given back once the attempts are written: the
   * worker's claim takes it in order later.
   */
  const deliverChain = async (
    chain: ClaimedDelivery[],
    claimedAt: number,
    lastAnswered: (outcome: ChainOutcome) => void,
  ): Promise<ChainOutcome> => {
    let outcome: ChainOutcome = "fast";
    const held: RecordedAttempt[] = [];
    for (const [i, c] of chain.entries()) {
      const rest = chain.slice(i + 1);
      const sent = await deliver(
        c,
        rest.length === 0 ? (last) => lastAnswered(last === "fast" ? outcome : last) : undefined,
        held,
      );
      if (sent !== "fast") outcome = sent;
      if (rest.length === 0) break;
      if (sent === "trouble" || sent === "unknown" || Date.now() - claimedAt > claimMs / 2) {
        await writeHeld(held);
        for (const later of rest) await releaseClaim(db, later.id);
        leftWork = true;
        return outcome;
      }
    }
    await writeHeld(held);
    return outcome;
  };

  /** Too late to ask: not sent; the engine applies the timeout default at once (statusReason platform-overloaded). */
  const answerOverloaded = async (c: ClaimedDelivery, startedAt: Date) => {
    opts.onDecisionNotSent?.();
    await db.tx(async (tx) => {
      const why = `not sent: less than ${MIN_DECISION_WINDOW_MS} ms left before the decision's deadline (platform overloaded)`;
      await recordAttempt(tx, unsentAttempt(c, startedAt, c.url ?? "", why), { status: "failed" });
      await enqueueDecision(tx, aboutOf(c), noAnswer("platform-overloaded"));
      await refreshEventStatus(tx, c.event_id);
    }, BOOKKEEPING);
  };

  /** The webhook was deleted after the event was routed to it: nothing to send to, the delivery fails. */
  const failWebhookGone = async (c: ClaimedDelivery, startedAt: Date) => {
    await db.tx(async (tx) => {
      await recordAttempt(tx, unsentAttempt(c, startedAt, "", "webhook no longer exists"), { status: "failed" });
      if (c.policy === "decision") await enqueueDecision(tx, aboutOf(c), noAnswer("no-webhook"));
      await refreshEventStatus(tx, c.event_id);
    });
  };

  const reclaim = async () => {
    if (Date.now() - lastReclaim < reclaimMs) return;
    lastReclaim = Date.now();
    const resent = await reclaimExpiredNotifications(db);
    if (resent) logger.warn({ resent }, "reclaimed deliveries left in flight by a stopped dispatcher");
    await db.tx(async (tx) => {
      for (const d of await failExpiredDecisions(tx)) {
        await enqueueDecision(tx, aboutOf(d), noAnswer("dispatcher-restarted"));
        await refreshEventStatus(tx, d.event_id);
      }
    });
  };

  /** Sends a claimed chain in a slot of its lane, keeps it until one frees, or gives the claims back. */
  const send = async (deliveries: ClaimedDelivery[]) => {
    const chain = {
      policy: deliveries[0]!.policy,
      webhookId: deliveries[0]!.webhook_id,
      deliveries,
      claimedAt: Date.now(),
    };
    const offered = lanes.offer(chain);
    if (offered === "start") launch(chain);
    if (offered === "refuse") {
      for (const claimed of deliveries) await releaseClaim(db, claimed.id);
      leftWork = true;
    }
  };

  /**
   * A chain's slot is freed when its last send is answered: recording the attempt is the dispatcher's own work, and
   * the receiver may take the next send meanwhile (the next delivery of the same resource is claimable only once the
   * attempt is recorded, so per-resource order holds).
   */
  const launch = (chain: ClaimedChain) => {
    let freed = false;
    const free = (outcome: ChainOutcome) => {
      if (freed) return;
      freed = true;
      for (const next of lanes.finished(chain, outcome)) launch(next);
    };
    const work = startChain(chain, free)
      .catch((err: unknown): ChainOutcome => {
        logger.error({ err, deliveryId: chain.deliveries[0]!.id }, "delivery bookkeeping failed; it will be retried");
        return "unknown";
      })
      .then((outcome) => {
        inFlight.delete(work);
        vacuum.finished(chain.deliveries.length);
        free(outcome);
        if (leftWork) worker.wake();
      });
    inFlight.add(work);
  };

  /** A chain that waited for a slot past half its claim is given back (a later send could outlive the claim). */
  const startChain = async (
    chain: ClaimedChain,
    lastAnswered: (outcome: ChainOutcome) => void,
  ): Promise<ChainOutcome> => {
    if (Date.now() - chain.claimedAt <= claimMs / 2)
      return deliverChain(chain.deliveries, chain.claimedAt, lastAnswered);
    for (const claimed of chain.deliveries) await releaseClaim(db, claimed.id);
    leftWork = true;
    return "unknown";
  };

  const tick = async (): Promise<boolean> => {
    await reclaim();
    const limits = { ...lanes.room(), claimMs };
    leftWork = limits.limit <= 0;
    if (leftWork) return false;
    const { deliveries: claimed, blocked } = await claimDueDeliveries({ query: db.bookkeeping }, limits);
    // A lane that took all its room may have more due, and a delivery waiting behind a send under way (per-resource
    // order) is claimable once that send finishes: either way a finished send claims again.
    leftWork = blocked > 0 || claimed.length === limits.limit || filledLane(claimed, limits);
    for (const c of claimed) await send([c]);
    return claimed.length > 0 && claimed.length === limits.limit;
  };

  /** Between start() and stop(): a stopped worker has no room, and what is handed to it waits for its claim to expire. */
  let accepting = false;

  const room = (): InsertClaim => (accepting ? { ...lanes.room(), claimMs, chain: MAX_CHAIN } : NO_ROOM);

  const worker = createPollingWorker({ name: "delivery worker", logger, idleMs: pollMs, step: tick });

  return {
    start() {
      accepting = true;
      worker.start();
    },
    wake: worker.wake,
    room,
    async take(claimed) {
      if (accepting) for (const chain of chainsOf(claimed)) await send(chain);
    },
    async stop() {
      accepting = false;
      await worker.stop();
      for (const chain of lanes.drain()) for (const claimed of chain.deliveries) await releaseClaim(db, claimed.id);
      await Promise.allSettled([...inFlight]);
      await vacuum.stop();
    },
  };
}
