import type { Express } from "express";
import type { Db } from "@cardhold/db";
import { listResource, requestContext } from "@cardhold/platform";
import type { ExpandLoader } from "@cardhold/query";
import { paymentRequestResource, type PaymentRequestRow } from "../store/payment-requests.store";
import { toPaymentRequestRecord } from "./payment-request-records";
import { createPaymentRequest, getPaymentRequest } from "./payment-requests";

const ok = (data: unknown) => ({ code: "success", data });

/** Payment requests; their pay-ins arrive through POST /simulation/payments/pay-in (accounts/accounts.ts). */
export function paymentRequestRoutes(app: Express, db: Db, loaders: Record<string, ExpandLoader>): void {
  app.post("/payment-requests", async (req, res) => {
    res.status(201).json(ok(await createPaymentRequest(db, requestContext(req), req.body)));
  });
  app.get("/payment-requests", async (req, res) => {
    res.json(
      await listResource<PaymentRequestRow>(req, {
        db,
        spec: paymentRequestResource,
        scope: requestContext(req),
        toRecord: toPaymentRequestRecord,
        loaders,
      }),
    );
  });
  app.get("/payment-requests/:id", async (req, res) => {
    res.json(ok(toPaymentRequestRecord(await getPaymentRequest(db, requestContext(req), req.params.id))));
  });
}
