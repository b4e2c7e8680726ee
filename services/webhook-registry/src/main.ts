import { z } from "zod";
import { DATA_KEY_PATTERN, runServiceProcess } from "@cardhold/platform";
import { createService, NAME } from "./service";

await runServiceProcess({
  name: NAME,
  defaultPort: 8082,
  configShape: {
    /** Let live-mode webhooks target private, loopback and link-local addresses (off by default: SSRF). */
    ALLOW_PRIVATE_WEBHOOK_TARGETS: z.enum(["true", "false"]).default("false"),
    /** Required: the AES-256 key signing keys are sealed with (the event-dispatcher's must be the same). */
    SECRETS_KEY: z
      .string()
      .regex(DATA_KEY_PATTERN, "must be 64 hexadecimal characters (32 bytes): openssl rand -hex 32"),
  },
  create: (deps, config) =>
    createService(deps, {
      secretsKey: config.SECRETS_KEY,
      allowPrivateTargets: config.ALLOW_PRIVATE_WEBHOOK_TARGETS === "true",
    }),
});
