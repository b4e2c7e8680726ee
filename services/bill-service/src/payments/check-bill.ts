import type { Queryable } from "@cardhold/db";
import {
  AppError,
  badRequest,
  findProjectedCustomers,
  notFound,
  stateConflict,
  type ProjectedCustomer,
  type RequestContext,
} from "@cardhold/platform";
import { withDeadline, type Biller } from "../billers/biller";
import { billPaymentDefaults } from "../configuration/configuration";
import { billFee } from "../domain/bill-fee";
import type { BillProduct } from "../domain/bill-product";
import type { FeeItem } from "../domain/payment-record";
import type { BillPaymentRequest } from "@cardhold/contracts";
import { findProduct } from "../domain/catalog";
import { checkInputs, type CheckedInputs } from "../domain/product-inputs";
import { SCHEMA } from "../store/payments.store";

type Scope = Pick<RequestContext, "businessId" | "mode">;

/** A bill request that passed every check: what it costs, whose account it is, for which customer. */
export interface CheckedBill {
  product: BillProduct;
  /** Its fee is the configured bill-payment fee's charge when one applies, else the product's. */
  checked: CheckedInputs;
  feeBreakdown: FeeItem[];
  /** The account to debit: the request's debitSource, else the configured payOutAccount, else null (the default). */
  debitSource: string | null;
  accountName: string;
  customer: ProjectedCustomer | null;
}

export interface BillCheckOptions {
  db: Queryable;
  biller: Biller;
  billerTimeoutMs: number;
  /** How long to wait for a customer the projection does not know yet (customers.v1 may lag the API). */
  customerWaitMs: number;
}

/** The customer a payment names, from the projection (waited for up to `waitMs`): 404 unknown, 422 not active. */
export async function activeCustomer(
  db: Queryable,
  scope: Scope,
  id: string,
  waitMs: number,
): Promise<ProjectedCustomer> {
  const [customer] = await findProjectedCustomers(db, SCHEMA, scope, [id], waitMs);
  if (!customer) throw notFound("Customer", id);
  if (customer.status !== "active") throw stateConflict(`Customer ${id} is not active`);
  return customer;
}

/** The checks shared by POST /payments/bill/validate and POST /payments/bill; they never move money. */
export function createBillChecks(opts: BillCheckOptions) {
  const awaitCustomer = (scope: Scope, id: string) => activeCustomer(opts.db, scope, id, opts.customerWaitMs);

  const lookUp = async (product: BillProduct, accountNumber: string): Promise<string> => {
    let result;
    try {
      result = await withDeadline(opts.billerTimeoutMs, (signal) => opts.biller.lookup(product, accountNumber, signal));
    } catch {
      throw new AppError(
        502,
        "biller-unavailable",
        `${product.billerName} did not answer the account lookup; try again`,
      );
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
      throw badRequest(
        `Invalid inputs for ${product.name}: ${inputs.problems.map((p) => p.path).join(", ")}`,
        inputs.problems,
      );
    }
    const defaults = await billPaymentDefaults(opts.db, scope);
    const fee = billFee(product, inputs.value.amount, defaults.billPaymentFee);
    const checked = { ...inputs.value, fee: fee.fee, total: inputs.value.amount + fee.fee };
    const debitSource = request.debitSource ?? defaults.payOutAccount;
    const customer = request.customer ? await awaitCustomer(scope, request.customer) : null;
    const accountName = await lookUp(product, inputs.value.accountNumber);
    return { product, checked, feeBreakdown: fee.breakdown, debitSource, accountName, customer };
  };
}

export type CheckBill = ReturnType<typeof createBillChecks>;
