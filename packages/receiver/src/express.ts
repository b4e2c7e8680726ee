import express, { type RequestHandler, type Router } from "express";
import { SIGNATURE_HEADER } from "./signature";
import type { Receiver } from "./receiver";

/** An express router that reads the raw body (the signature covers the exact bytes) and answers with the receiver. */
export function receiverRouter(receiver: Receiver, path = "/"): Router {
  const router = express.Router();
  const handle: RequestHandler = async (req, res, next) => {
    try {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const { status, body } = await receiver.handle(raw, req.header(SIGNATURE_HEADER));
      res.status(status).json(body);
    } catch (error) {
      next(error);
    }
  };
  router.post(path, express.raw({ type: () => true, limit: "1mb" }), handle);
  return router;
}
