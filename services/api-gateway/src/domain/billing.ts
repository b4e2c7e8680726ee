/**
 * Billings: the operator's charges to a business (the original provider's "charges to the business"). The operator
 * records them through the admin API; the business reads them (GET /billings). A charge is `pending` until the
 * operator marks it `paid`, or `void` when it is withdrawn; both are final.
 */
import { z } from "zod";
import { currencySchema, positiveMinorUnits } from "@cardhold/contracts";
import { ID_PREFIXES, newId } from "@cardhold/platform";

export const BILLING_ID_PREFIX = ID_PREFIXES.billing;
export const newBillingId = () => newId("billing");

export const BILLING_STATUSES = ["pending", "paid", "void"] as const;
export type BillingStatus = (typeof BILLING_STATUSES)[number];

const period = z
  .strictObject({
    start: z.iso.date("must be a date, YYYY-MM-DD"),
    end: z.iso.date("must be a date, YYYY-MM-DD"),
  })
  .refine((p) => p.end >= p.start, { error: "end must not be before start", path: ["end"] })
  .describe("The days the charge covers, both included");

/** Strict: a misspelt field must not quietly drop what the operator meant to record. */
export const createBillingSchema = z.strictObject({
  amount: positiveMinorUnits.describe("In minor units (kobo, cents)"),
  currency: currencySchema,
  description: z.string().trim().min(1, "must not be empty").max(500),
  period: period.optional(),
  mode: z.enum(["test", "live"]).default("live").describe("Which of the business's modes shows it (default live)"),
});
export type CreateBillingInput = z.infer<typeof createBillingSchema>;

export const updateBillingSchema = z.strictObject({
  status: z.enum(["paid", "void"]).describe("paid: the business settled it; void: withdrawn"),
});

/** A change of status the billing's current status does not allow. */
export class IllegalBillingTransition extends Error {
  constructor(
    readonly from: BillingStatus,
    readonly to: BillingStatus,
  ) {
    super(`a ${from} billing cannot become ${to}`);
    this.name = "IllegalBillingTransition";
  }
}

/** pending → paid | void. Asking for the status it already has changes nothing (a retry is safe). */
export function transition(from: BillingStatus, to: "paid" | "void"): BillingStatus {
  if (from === to || from === "pending") return to;
  throw new IllegalBillingTransition(from, to);
}
