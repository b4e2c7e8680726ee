import { z } from "zod";

export const DEFAULT_DELAYED_REQUEST_AFTER_MS = 10_000;

/** The settings of the gateway's process and of `cardhold dev`. */
export const DELAYED_REQUEST_SETTINGS = {
  /**
   * How long a write of a key with delayedRequests on is waited for before it is answered 202 request-accepted
   * (GET /requests/:id then tells its state). Below the gateway's 30 s upstream timeout, or it would never apply.
   */
  DELAYED_REQUEST_AFTER_MS: z.coerce.number().int().min(100).max(25_000).default(DEFAULT_DELAYED_REQUEST_AFTER_MS),
};
