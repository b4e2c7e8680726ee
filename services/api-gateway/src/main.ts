import { z } from "zod";
import { DATA_KEY_PATTERN, runServiceProcess } from "@cardhold/platform";
import { createService, DELAYED_REQUEST_SETTINGS, NAME, RATE_LIMIT_SETTINGS, rateLimitsFrom } from "./service";

const url = z.url();

/** TRUST_PROXY as Express reads it: a hop count, true/false, or addresses and subnets (comma-separated). */
function trustProxyOf(value: string | undefined): string | number | boolean | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  if (value === "true" || value === "false") return value === "true";
  return value;
}

await runServiceProcess({
  name: NAME,
  defaultPort: 8080,
  configShape: {
    /** Guards /admin; admin endpoints are off when unset. */
    OPERATOR_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
    /** Seals the signing key a new business is announced with; the same value as the webhook-registry's. */
    SECRETS_KEY: z
      .string()
      .regex(DATA_KEY_PATTERN, "must be 64 hexadecimal characters (32 bytes): openssl rand -hex 32"),
    CUSTOMER_SERVICE_URL: url.default("http://127.0.0.1:8081"),
    WEBHOOK_REGISTRY_URL: url.default("http://127.0.0.1:8082"),
    EVENT_DISPATCHER_URL: url.default("http://127.0.0.1:8083"),
    AUTHORIZATION_ENGINE_URL: url.default("http://127.0.0.1:8084"),
    BILL_SERVICE_URL: url.default("http://127.0.0.1:8085"),
    /** Requests a second and bursts, per API key and per business (README, "Limits"). */
    ...RATE_LIMIT_SETTINGS,
    /** When a write of a key with delayedRequests on is answered 202 (README, "Delayed requests"). */
    ...DELAYED_REQUEST_SETTINGS,
    /** The console's built files (README, "Console"); default: apps/console/dist of the repository. */
    CONSOLE_DIR: z.string().min(1).optional(),
    /** Whose X-Forwarded-* headers to believe (Express "trust proxy"): `loopback`, an address list, hops; unset: none. */
    TRUST_PROXY: z.string().min(1).optional(),
  },
  links: (url) => ({ console: `${url}/console`, docs: `${url}/docs` }),
  create: (deps, config) =>
    createService({
      ...deps,
      operatorToken: config.OPERATOR_TOKEN,
      secretsKey: config.SECRETS_KEY,
      rateLimits: rateLimitsFrom(config),
      delayedRequestAfterMs: config.DELAYED_REQUEST_AFTER_MS,
      consoleDir: config.CONSOLE_DIR,
      trustProxy: trustProxyOf(config.TRUST_PROXY),
      upstreams: {
        "customer-service": config.CUSTOMER_SERVICE_URL,
        "webhook-registry": config.WEBHOOK_REGISTRY_URL,
        "event-dispatcher": config.EVENT_DISPATCHER_URL,
        "authorization-engine": config.AUTHORIZATION_ENGINE_URL,
        "bill-service": config.BILL_SERVICE_URL,
      },
    }),
});
