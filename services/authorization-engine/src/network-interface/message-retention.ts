/**
 * engine.network_messages keeps each answer for its repeats: a network repeats a message within seconds or minutes,
 * and at 250 authorizations a second the table would grow by 21 million rows a day if nothing deleted them. Past the
 * retention a message is deleted; a repeat that comes later still cannot charge twice (the authorization's network
 * reference is unique per card), it is only answered from the authorization as it stands.
 */
import type { Logger } from "pino";
import { createPollingWorker, type PollingWorker } from "@cardhold/bus";
import type { Db } from "@cardhold/db";
import { deleteMessagesReceivedBefore } from "../store/network-messages.store";

export const DEFAULT_RETENTION_HOURS = 7 * 24;
/** Rows deleted per statement: short transactions, however far behind a pass starts. */
const BATCH = 5_000;
const PASS_EVERY_MS = 10 * 60_000;

/** Deletes every message older than the retention, a batch at a time; returns how many. */
export async function pruneNetworkMessages(db: Db, retentionMs: number, now = Date.now()): Promise<number> {
  const before = new Date(now - retentionMs);
  let deleted = 0;
  for (let n = BATCH; n === BATCH; deleted += n) n = await deleteMessagesReceivedBefore(db, before, BATCH);
  return deleted;
}

/** A pass at start and every 10 minutes. */
export function createMessageRetention(db: Db, logger: Logger, retentionHours: number): PollingWorker {
  return createPollingWorker({
    name: "network message retention",
    logger,
    idleMs: PASS_EVERY_MS,
    step: async () => {
      const deleted = await pruneNetworkMessages(db, retentionHours * 3_600_000);
      if (deleted > 0) logger.info({ deleted, retentionHours }, "network messages past their retention deleted");
      return false;
    },
  });
}
