import type { BillProduct } from "../domain/bill-product";
import type { BillerAnswer } from "../domain/payment-state";

/** What the bill-service asks a biller to pay. */
export interface BillerOrder {
  /** The payment id: the biller's idempotency key (paying the same reference twice is one order). */
  reference: string;
  product: BillProduct;
  accountNumber: string;
  /** The bill amount, minor units (the fee stays with the platform). */
  amount: number;
  inputs: Record<string, string>;
}

export type LookupResult = { found: true; accountName: string } | { found: false; message: string };

/** A biller's definite answer about an order. */
export type OrderAnswer = Exclude<BillerAnswer, { status: "unknown" }>;

/**
 * A biller adapter. Each call gets an AbortSignal that fires at the bill-service's biller timeout; a call that throws
 * or times out leaves the outcome unknown, and the order is asked about again later with `query`.
 */
export interface Biller {
  /** Looks the account up (meter, smartcard, phone) without moving money. */
  lookup(product: BillProduct, accountNumber: string, signal: AbortSignal): Promise<LookupResult>;
  /** Places the order; idempotent by `order.reference`: a second call answers about the first order. */
  pay(order: BillerOrder, signal: AbortSignal): Promise<OrderAnswer>;
  /** Where an order stands; `not-found` when the biller never received it. */
  query(reference: string, signal: AbortSignal): Promise<OrderAnswer | { status: "not-found" }>;
}

export class BillerTimeoutError extends Error {
  constructor(ms: number) {
    super(`the biller did not answer within ${ms} ms`);
    this.name = "BillerTimeoutError";
  }
}

/** Runs a biller call with a deadline: the signal aborts it, and the caller stops waiting either way. */
export async function withDeadline<T>(ms: number, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new BillerTimeoutError(ms));
    }, ms);
  });
  try {
    return await Promise.race([call(controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
