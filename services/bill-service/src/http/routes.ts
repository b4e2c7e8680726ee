import type { Express, Request, Response } from "express";
import type { Db } from "@cardhold/db";
import { listResource, projectedCustomerLoader, requestContext } from "@cardhold/platform";
import { toPaymentRecord, type PaymentRow } from "../domain/payment-record";
import type { BillPayments } from "../payments/bill-payments";
import { paymentResource, SCHEMA } from "../store/payments.store";

export function paymentRoutes(app: Express, db: Db, payments: BillPayments): void {
  app.post("/payments/bill/validate", async (req, res) => {
    res.json({ code: "success", data: await payments.validate(requestContext(req), req.body) });
  });

  /** 201 with the final payment, or 202 `request-accepted` when it is still under way after the wait. */
  app.post("/payments/bill", async (req, res) => {
    const { payment, final } = await payments.pay(requestContext(req), req.body);
    if (final) res.status(201).json({ code: "success", data: payment });
    else res.status(202).json({ code: "request-accepted", data: payment });
  });

  app.get("/payments", listPayments(db));

  app.get("/payments/:id", async (req, res) => {
    res.json({ code: "success", data: await payments.get(requestContext(req), req.params.id) });
  });
}

/** GET /payments through the query language; `within` fixes conditions (e.g. type:pay-out for /payments/payouts). */
export function listPayments(db: Db, within?: Record<string, string>) {
  return async (req: Request, res: Response) => {
    res.json(
      await listResource<PaymentRow>(req, {
        db,
        spec: paymentResource,
        scope: requestContext(req),
        toRecord: toPaymentRecord,
        loaders: { customer: projectedCustomerLoader(db, SCHEMA) },
        within,
      }),
    );
  };
}
