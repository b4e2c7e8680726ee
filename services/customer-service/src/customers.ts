import { enqueue, type OutboxRelay } from "@cardhold/bus";
import {
  TOPICS,
  type CustomerChangedMessage,
  type CustomerRecord,
  type CustomerRequest,
  type Mode,
} from "@cardhold/contracts";
import { PG_UNIQUE_VIOLATION, pgErrorCode, type Db, type Queryable } from "@cardhold/db";
import { conflict, failpoint, newId, notFound, recordIdempotentAnswer } from "@cardhold/platform";
import { parseCustomerRequest, storedClaims, toCustomerRecord } from "./domain/customer";
import { findCustomer, insertCustomer, SCHEMA, updateCustomer, type Scope } from "./store/customers.store";

export interface CustomerUseCases {
  create(scope: Scope, body: unknown): Promise<CustomerRecord>;
  update(scope: Scope, id: string, body: unknown): Promise<CustomerRecord>;
  get(scope: Scope, id: string): Promise<CustomerRecord>;
}

/** The stored fields of a validated request (identity urls dropped). */
function storedFields(request: CustomerRequest) {
  return {
    name: request.name,
    reference: request.reference,
    type: request.type,
    claims: storedClaims(request.claims),
    verifications: request.verifications,
    metadata: request.metadata,
  };
}

function changedMessage(type: CustomerChangedMessage["type"], scope: Scope, record: CustomerRecord) {
  const value: CustomerChangedMessage = {
    type,
    businessId: scope.businessId,
    mode: scope.mode as Mode,
    occurredAt: record.updatedAt,
    data: record,
  };
  return { topic: TOPICS.customers, key: record.id, value };
}

/** Runs a write; a reference the business already uses becomes a 409. */
async function uniqueReference<T>(reference: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (pgErrorCode(error) === PG_UNIQUE_VIOLATION) {
      throw conflict(`A customer with reference "${reference}" already exists`);
    }
    throw error;
  }
}

/** Each change commits with its customers.v1 message in the outbox, then wakes the relay. */
export function customerUseCases(db: Db, relay: Pick<OutboxRelay, "wake">): CustomerUseCases {
  const commit = async (work: (tx: Queryable) => Promise<CustomerRecord>) => {
    const record = await db.tx(work);
    failpoint("customer-service:after-commit");
    relay.wake();
    return record;
  };

  return {
    async create(scope, body) {
      const request = parseCustomerRequest(body);
      const now = new Date();
      return uniqueReference(request.reference, () =>
        commit(async (tx) => {
          const row = await insertCustomer(tx, scope, {
            id: newId("customer"),
            ...storedFields(request),
            created_at: now,
            updated_at: now,
          });
          const record = toCustomerRecord(row);
          await enqueue(tx, SCHEMA, [changedMessage("customer.created", scope, record)]);
          await recordIdempotentAnswer(tx, 201, { code: "success", data: record });
          return record;
        }),
      );
    },

    async update(scope, id, body) {
      const request = parseCustomerRequest(body);
      return uniqueReference(request.reference, () =>
        commit(async (tx) => {
          const row = await updateCustomer(tx, scope, { id, ...storedFields(request), updated_at: new Date() });
          if (!row) throw notFound("Customer", id);
          const record = toCustomerRecord(row);
          await enqueue(tx, SCHEMA, [changedMessage("customer.updated", scope, record)]);
          await recordIdempotentAnswer(tx, 200, { code: "success", data: record });
          return record;
        }),
      );
    },

    async get(scope, id) {
      const row = await findCustomer(db, scope, id);
      if (!row) throw notFound("Customer", id);
      return toCustomerRecord(row);
    },
  };
}
