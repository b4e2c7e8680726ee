import type { Express } from "express";
import type { Db } from "@cardhold/db";
import { requestContext } from "@cardhold/platform";
import { BankUnavailable } from "../banks/bank-tools";
import { listPayments } from "../http/routes";
import type { Payouts } from "./payouts";

/** Register before the payment routes: `GET /payments/:id` would take `payouts` for an id. */
export function payoutRoutes(app: Express, db: Db, payouts: Payouts): void {
  /** As POST /payments/bill: 201 with the final payout, 202 `request-accepted` while it is still under way. */
  app.post("/payments/payouts", async (req, res) => {
    try {
      const { payment, final } = await payouts.create(requestContext(req), req.body);
      if (final) res.status(201).json({ code: "success", data: payment });
      else res.status(202).json({ code: "request-accepted", data: payment });
    } catch (error) {
      // The beneficiary's bank did not answer the name enquiry: 503 with Retry-After (the error handler writes the body).
      if (error instanceof BankUnavailable) res.setHeader("retry-after", String(error.retryAfterSeconds));
      throw error;
    }
  });

  /** GET /payments with the fixed filter type:pay-out. */
  app.get("/payments/payouts", listPayments(db, { type: "pay-out" }));
}
