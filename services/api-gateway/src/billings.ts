import type { Db } from "@cardhold/db";
import { notFound, stateConflict, validate } from "@cardhold/platform";
import type { Scope } from "@cardhold/query";
import {
  createBillingSchema,
  IllegalBillingTransition,
  newBillingId,
  transition,
  updateBillingSchema,
  type BillingStatus,
} from "./domain/billing";
import {
  findBilling,
  insertBilling,
  lockBusinessBilling,
  setBillingStatus,
  toBillingRecord,
} from "./store/billings.store";
import { businessExists } from "./store/businesses.store";

/** The transition, its typed error as the platform's 422. */
function allowed(from: BillingStatus, to: "paid" | "void"): BillingStatus {
  try {
    return transition(from, to);
  } catch (error) {
    if (error instanceof IllegalBillingTransition) throw stateConflict(`Billing: ${error.message}`);
    throw error;
  }
}

/** The operator's charges to a business (src/domain/billing.ts): the operator writes them, the business reads them. */
export function billingUseCases(db: Db) {
  const requireBusiness = async (businessId: string) => {
    if (!(await businessExists(db, businessId))) throw notFound("Business", businessId);
  };

  return {
    async create(businessId: string, body: unknown) {
      const input = validate(createBillingSchema, body);
      await requireBusiness(businessId);
      return toBillingRecord(await insertBilling(db, { ...input, id: newBillingId(), businessId }));
    },

    /** pending → paid | void; another change is a 422 naming both statuses. */
    async changeStatus(businessId: string, billingId: string, body: unknown) {
      const input = validate(updateBillingSchema, body);
      await requireBusiness(businessId);
      const row = await db.tx(async (tx) => {
        const current = await lockBusinessBilling(tx, businessId, billingId);
        if (!current) throw notFound("Billing", billingId);
        return setBillingStatus(tx, billingId, allowed(current.status, input.status));
      });
      return toBillingRecord(row);
    },

    /** The business's billing in the caller's mode; another business's id is unknown. */
    async get(scope: Scope, id: string) {
      const row = await findBilling(db, scope, id);
      if (!row) throw notFound("Billing", id);
      return toBillingRecord(row);
    },
  };
}

export type BillingUseCases = ReturnType<typeof billingUseCases>;
