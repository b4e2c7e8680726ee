import { z } from "zod";
import { DATA_KEY_PATTERN, runServiceProcess } from "@cardhold/platform";
import { DEFAULT_RETRY_DELAYS_MS, DEFAULT_RETRY_WINDOW_MS } from "./domain/retry-schedule";
import { DEFAULT_MAX_IN_FLIGHT, DEFAULT_MAX_IN_FLIGHT_PER_WEBHOOK } from "./delivery/delivery.worker";
import { createService, NAME } from "./service";

const msList = z
  .string()
  .regex(/^\d+(,\d+)*$/, "must be a comma-separated list of milliseconds")
  .default(DEFAULT_RETRY_DELAYS_MS.join(","))
  .transform((s) => s.split(",").map(Number));

await runServiceProcess({
  name: NAME,
  defaultPort: 8083,
  configShape: {
    /** Delays after each failed notification attempt; the last repeats. */
    DISPATCHER_RETRY_DELAYS_MS: msList,
    /** After this long since the first attempt an event is marked failed (3 days). */
    DISPATCHER_RETRY_WINDOW_MS: z.coerce.number().int().min(1).default(DEFAULT_RETRY_WINDOW_MS),
    DISPATCHER_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(1024).default(DEFAULT_MAX_IN_FLIGHT),
    /** Notifications to one webhook at once, at most (from 8, one more per fast answer): a slow receiver cannot take every slot. */
    DISPATCHER_MAX_IN_FLIGHT_PER_WEBHOOK: z.coerce
      .number()
      .int()
      .min(1)
      .max(1024)
      .default(DEFAULT_MAX_IN_FLIGHT_PER_WEBHOOK),
    /** An in-flight delivery of a dispatcher that died is sent again after this long. */
    DISPATCHER_CLAIM_MS: z.coerce.number().int().min(5_000).default(30_000),
    /** Let live-mode deliveries connect to private, loopback and link-local addresses (off by default: SSRF). */
    ALLOW_PRIVATE_WEBHOOK_TARGETS: z.enum(["true", "false"]).default("false"),
    /** Required: the AES-256 key signing keys are sealed with (the webhook-registry's). */
    SECRETS_KEY: z
      .string()
      .regex(DATA_KEY_PATTERN, "must be 64 hexadecimal characters (32 bytes): openssl rand -hex 32"),
  },
  create: (deps, config) =>
    createService(deps, {
      secretsKey: config.SECRETS_KEY,
      retrySchedule: { delaysMs: config.DISPATCHER_RETRY_DELAYS_MS, windowMs: config.DISPATCHER_RETRY_WINDOW_MS },
      maxInFlight: config.DISPATCHER_MAX_IN_FLIGHT,
      maxInFlightPerWebhook: config.DISPATCHER_MAX_IN_FLIGHT_PER_WEBHOOK,
      claimMs: config.DISPATCHER_CLAIM_MS,
      allowPrivateTargets: config.ALLOW_PRIVATE_WEBHOOK_TARGETS === "true",
    }),
});
