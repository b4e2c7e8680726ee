import type { Express } from "express";
import { requestContext } from "@cardhold/platform";
import type { BillPayments } from "../payments/bill-payments";
import { paymentReceiptPdf } from "../payments/payment-receipt";
import type { createPaymentRequeue } from "../payments/requeue-payment";
import type { createCompletedEventResend } from "../payments/resend-completed-event";

export interface PaymentExtras {
  payments: BillPayments;
  requeue: ReturnType<typeof createPaymentRequeue>;
  resendCompletedEvent: ReturnType<typeof createCompletedEventResend>;
}

/** The payment's receipt, a retry of a failed payment, and its completion event sent again. */
export function paymentExtrasRoutes(app: Express, extras: PaymentExtras): void {
  app.get("/payments/:id/generate/pdf", async (req, res) => {
    const payment = await extras.payments.get(requestContext(req), req.params.id);
    const pdf = await paymentReceiptPdf(payment);
    // Quoted, as the interface shows it (express's attachment() leaves a plain token unquoted); ids need no escaping.
    res.setHeader("content-disposition", `attachment; filename="${payment.id}.pdf"`);
    res.type("application/pdf").send(Buffer.from(pdf));
  });

  /** As POST /payments/bill: 201 with the retry once final, 202 `request-accepted` while it is under way. */
  app.post("/payments/:id/requeue", async (req, res) => {
    const { payment, final } = await extras.requeue(requestContext(req), req.params.id, req.body);
    if (final) res.status(201).json({ code: "success", data: payment });
    else res.status(202).json({ code: "request-accepted", data: payment });
  });

  app.post("/payments/:id/resend-events/payment-completed", async (req, res) => {
    const payment = await extras.resendCompletedEvent(requestContext(req), req.params.id, req.body);
    res.json({ code: "success", data: payment });
  });
}
