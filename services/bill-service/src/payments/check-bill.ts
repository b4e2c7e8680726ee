import { setTimeout as sleep } from "node:timers/promises";
import type { Queryable } from "@cardhold/db";
import { AppError, badRequest, notFound, stateConflict, type RequestContext } from "@cardhold/platform";
import { withDeadline, type Biller } from "../billers/biller";
import type { BillProduct } from "../domain/bill-product";
import type { BillPaymentRequest } from "@cardhold/contracts";
import { findProduct } from "../domain/catalog";
import { checkInputs, type CheckedInputs } from "../domain/product-inputs";
import { findCustomer, type KnownCustomer } from "../store/customers.store";

type Scope = Pick<RequestContext, "businessId" | "mode">;

/** A bill request that passed every check: what it costs, whose account it is, for which customer. */
export interface CheckedBill {
  product: BillProduct;
  checked: CheckedInputs;
  accountName: string;
  customer: KnownCustomer | null;
}

export interface BillCheckOptions {
  db: Queryable;
  biller: Biller;
  billerTimeoutMs: number;
  /** How long to wait for a customer the projection does not know yet (customers.v1 may lag the API). */
  customerWaitMs: number;
}

const CUSTOMER_POLL_MS = 100;

/** The checks shared by POST /payments/bill/validate and POST /payments/bill; they never move money. */
export function createBillChecks(opts: BillCheckOptions) {
  const awaitCustomer = async (scope: Scope, id: string): Promise<KnownCustomer> => {
    const deadline = Date.now() + opts.customerWaitMs;
    for (;;) {
      const customer = await findCustomer(opts.db, scope, id);
      if (customer) {
        if (customer.status !== "active") throw stateConflict(`Customer ${id} is not active`);
        return customer;
      }
      if (Date.now() >= deadline) throw notFound("Customer", id);
      await sleep(Math.min(CUSTOMER_POLL_MS, Math.max(0, deadline - Date.now())));
    }
  };

  const lookUp = async (product: BillProduct, accountNumber: string): Promise<string> => {
    let result;
    try {
      result = await withDeadline(opts.billerTimeoutMs, (signal) => opts.biller.lookup(product, accountNumber, signal));
    } catch {
      throw new AppError(502, "biller-unavailable", `${product.billerName} did not answer the account lookup; try again`);
    }
    if (!result.found) {
      const input = product.inputs.find((i) => i.name === product.accountInput);
      throw badRequest(`Invalid ${input?.label.toLowerCase() ?? product.accountInput} for ${product.name}`, [
        { path: `inputs.${product.accountInput}`, message: `${product.billerName}: ${result.message}` },
      ]);
    }
    return result.accountName;
  };

  return async function checkBill(scope: Scope, request: BillPaymentRequest): Promise<CheckedBill> {
    const product = findProduct(request.product);
    if (!product) throw notFound("Bill product", request.product);
    const inputs = checkInputs(product, request.inputs);
    if (!inputs.ok) {
      throw badRequest(`Invalid inputs for ${product.name}: ${inputs.problems.map((p) => p.path).join(", ")}`, inputs.problems);
    }
    const customer = request.customer ? await awaitCustomer(scope, request.customer) : null;
    const accountName = await lookUp(product, inputs.value.accountNumber);
    return { product, checked: inputs.value, accountName, customer };
  };
}

export type CheckBill = ReturnType<typeof createBillChecks>;
