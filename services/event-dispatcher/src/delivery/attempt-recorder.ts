import type { Logger } from "pino";
import { createGroupCommit, type Db } from "@cardhold/db";
import { recordSoleNotificationAttempts, type RecordedAttempt } from "../store/deliveries.store";

export interface AttemptRecorder {
  /** Resolves once the attempt is written (with the others written with it). */
  record(recorded: RecordedAttempt): Promise<void>;
}

/**
 * The common attempt (a notification that is its event's only delivery) by group commit: the attempts of sends that
 * finish while a write is under way go out together in the next one. The commit does not wait for the disk
 * (bookkeeping: a lost record only makes the delivery due again).
 */
export function createAttemptRecorder(db: Db, logger: Logger): AttemptRecorder {
  const group = createGroupCommit<RecordedAttempt>((batch) => recordSoleNotificationAttempts({ query: db.bookkeeping }, batch), {
    onGroupFailed: (err, attempts) => logger.warn({ err, attempts }, "a group of attempt records failed; writing them one by one"),
  });
  return { record: group.write };
}
