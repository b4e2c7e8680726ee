import { z } from "zod";
import type { Db } from "@cardhold/db";
import { notFound, recordIdempotentAnswer, validate } from "@cardhold/platform";
import { deliveriesOf, findEvent, retryDeliveries, toEventRecord } from "../store/events.store";

const emptyBody = z.object({}).strict();

/**
 * POST /events/:id/retry: every delivery of the event due again now, as a manual retry, whatever its state. The answer
 * (200, the event with its deliveries as they now stand) is recorded in the retry's transaction, so an Idempotency-Key
 * retry after this process died between the commit and the answer gets it; the route answers the same. The caller
 * wakes the delivery worker once it is committed.
 */
export async function retryEvent(db: Db, scope: { businessId: string; mode: string }, id: string, body: unknown) {
  validate(emptyBody, body ?? {});
  return db.tx(async (tx) => {
    const row = await findEvent(tx, scope, id);
    if (!row) throw notFound("Event", id);
    await retryDeliveries(tx, row.id);
    const fresh = (await findEvent(tx, scope, row.id))!;
    const data = { ...toEventRecord(fresh), deliveries: await deliveriesOf(tx, row.id) };
    const answer = { code: "success" as const, data };
    await recordIdempotentAnswer(tx, 200, answer);
    return answer;
  });
}
