import type { Logger } from "pino";
import { createGroupCommit, type Db } from "@cardhold/db";
import { recordSoleNotificationAttempts, type RecordedAttempt } from "../store/deliveries.store";

export interface AttemptRecorder {
  /**
   * Resolves once the attempts are written (with the others written with them). The attempts given in one call are
   * one unit: written in one statement, together or not at all (a failed group is retried unit by unit).
   */
  record(unit: RecordedAttempt[]): Promise<void>;
}

/**
 * How long an attempt waits for others before it is recorded. The receiver's slot is free once it answered, so the
 * wait delays only the next delivery of the same resource (claimable once this one is recorded). Measured at a
 * steady 1,000 deliveries/s: attempt statements per delivery 0.33 → 0.09, CPU per delivery −13 %.
 */
const ATTEMPT_LINGER_MS = 10;

/**
 * The common attempt (a notification that is its event's only delivery) by group commit: the attempts of sends that
 * finish within the linger, or while a write is under way, go out together. The commit does not wait for the disk
 * (bookkeeping: a lost record only makes the delivery due again).
 */
export function createAttemptRecorder(db: Db, logger: Logger): AttemptRecorder {
  const group = createGroupCommit<RecordedAttempt[]>(
    (units) => recordSoleNotificationAttempts({ query: db.bookkeeping }, units.flat()),
    {
      lingerMs: ATTEMPT_LINGER_MS,
      sizeOf: (unit) => unit.length,
      onGroupFailed: (err, units) =>
        logger.warn({ err, units }, "a group of attempt records failed; writing them unit by unit"),
    },
  );
  return { record: group.write };
}
