export { migrateIdempotency } from "./key-table";
export { KEY_LIFETIME_MS } from "./key-store";
export { priorIdempotentEffect, recordIdempotentAnswer, recordIdempotentEffect } from "./in-transaction";
export {
  answerHoldsSecret,
  IDEMPOTENCY_KEY_HEADER,
  idempotencyKeyOf,
  idempotentWrites,
  REPLAYED_HEADER,
  type IdempotencyOptions,
} from "./middleware";
