import { TOPICS } from "@cardhold/contracts";
import { isDatabaseUnavailable } from "@cardhold/db";
import type { IncomingMessage, OutgoingMessage } from "./bus";

/**
 * A message its handler can never take (unreadable bytes, or a handler that keeps failing on it for a reason other
 * than the database or the broker being away) would hold its partition for good: every later message of that
 * partition waits behind it. After a few attempts over at least a minute it is set aside on dead-letters.v1, with
 * where it came from and why, and the partition moves on. Failures of the infrastructure are never counted: a
 * database outage must not turn valid messages into dead letters; the minute is there for the outage whose errors
 * are not recognised as such.
 */
export interface PoisonPolicy {
  /** Failures of its own a message may have before it is set aside (default 5)… */
  attempts: number;
  /** …over at least this long since its first (default 60 s). */
  ms: number;
}

export const DEFAULT_POISON_POLICY: PoisonPolicy = { attempts: 5, ms: 60_000 };

/**
 * SQLSTATEs of a statement that may pass when run again, the database being busy rather than away: transaction
 * rollbacks such as serialization failures and deadlocks (40), insufficient resources (53), lock not available.
 */
const RETRYABLE_SQLSTATE = /^(40|53)|^55P03$/;

/** True when the failure is the infrastructure's (retry for as long as it takes), false when it may be the message's. */
export function isTransientFailure(error: unknown): boolean {
  if (isDatabaseUnavailable(error)) return true;
  if (typeof error !== "object" || error === null) return false;
  const e = error as { code?: unknown; retriable?: unknown; status?: unknown; statusCode?: unknown };
  if (typeof e.code === "string" && RETRYABLE_SQLSTATE.test(e.code)) return true;
  if (e.retriable === true) return true; // kafkajs's own errors say so
  return e.status === 503 || e.statusCode === 503; // the platform's "unavailable, try again"
}

const REMEMBERED_SET_ASIDE = 1_000;

export type FailureVerdict = "retry" | "dead-letter";

/** Counts each message's consecutive failures that were not the infrastructure's (per process, by message id). */
export function createPoisonTracker(policy: PoisonPolicy = DEFAULT_POISON_POLICY, now: () => number = Date.now) {
  const failures = new Map<string, { count: number; since: number }>();
  /** Messages set aside lately: a redelivery (from the last committed offset) skips them instead of failing again. */
  const setAside = new Set<string>();
  return {
    wasSetAside: (messageId: string) => setAside.has(messageId),
    markSetAside(messageId: string): void {
      setAside.add(messageId);
      if (setAside.size > REMEMBERED_SET_ASIDE) setAside.delete(setAside.values().next().value!);
    },
    failed(messageId: string, error: unknown): FailureVerdict {
      if (isTransientFailure(error)) return "retry";
      const seen = failures.get(messageId) ?? { count: 0, since: now() };
      seen.count++;
      if (seen.count < policy.attempts || now() - seen.since < policy.ms) {
        failures.set(messageId, seen);
        return "retry";
      }
      failures.delete(messageId);
      return "dead-letter";
    },
    handled(messageId: string): void {
      failures.delete(messageId);
    },
  };
}

export type PoisonTracker = ReturnType<typeof createPoisonTracker>;

/** The dead letter of a message `group` could not handle: the message as it came, with where from and why. */
export function deadLetterOf(message: IncomingMessage, group: string, error: unknown): OutgoingMessage {
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return {
    topic: TOPICS.deadLetters,
    // The same message set aside again (a redelivery after a crash) is the same dead letter: readers can dedupe.
    id: `${message.id}/${group}`,
    key: message.key,
    value: {
      group,
      topic: message.topic,
      partition: message.partition,
      offset: message.offset,
      messageId: message.id,
      key: message.key,
      headers: message.headers,
      value: message.value,
      error: reason.slice(0, 2_000),
      deadAt: new Date().toISOString(),
    },
  };
}

/** A message whose bytes are not JSON: handed to no handler, set aside at once. */
export class UnreadableMessage extends Error {
  constructor(readonly text: string) {
    super("the message is not JSON");
    this.name = "UnreadableMessage";
  }
}

export interface GuardedHandling {
  group: string;
  /** Runs the subscription's handler on messages of one partition, in order. */
  run(messages: IncomingMessage[]): Promise<void>;
  /** Publishes the dead letter; a failure to do so leaves the message to be tried again. */
  setAside(message: OutgoingMessage): Promise<void>;
  onSetAside(message: IncomingMessage, error: unknown): void;
  policy?: PoisonPolicy;
}

/**
 * Handles a chunk of one partition's messages as both buses do: unreadable ones are set aside at once; a chunk that
 * fails for a reason that is not the infrastructure's is taken one message at a time, to find the one at fault; that
 * one is tried again (the error is thrown, the bus redelivers) until the policy gives up on it, then set aside. Resolves when every message is handled or set aside; throws when the chunk must be delivered again.
 */
export function guardedHandling(opts: GuardedHandling) {
  const tracker = createPoisonTracker(opts.policy);
  const setAside = async (message: IncomingMessage, error: unknown) => {
    await opts.setAside(deadLetterOf(message, opts.group, error));
    tracker.markSetAside(message.id);
    opts.onSetAside(message, error);
  };
  const attempt = async (messages: IncomingMessage[]): Promise<void> => {
    try {
      await opts.run(messages);
      for (const m of messages) tracker.handled(m.id);
    } catch (error) {
      if (messages.length > 1 && !isTransientFailure(error)) {
        for (const m of messages) await attempt([m]);
        return;
      }
      if (messages.length > 1 || tracker.failed(messages[0]!.id, error) === "retry") throw error;
      await setAside(messages[0]!, error);
    }
  };
  return async (chunk: IncomingMessage[]): Promise<void> => {
    const readable: IncomingMessage[] = [];
    for (const m of chunk) {
      if (tracker.wasSetAside(m.id)) continue;
      if (m.value instanceof UnreadableMessage) await setAside({ ...m, value: m.value.text }, m.value);
      else readable.push(m);
    }
    if (readable.length > 0) await attempt(readable);
  };
}
