import { z } from "zod";
import { runServiceProcess } from "@cardhold/platform";
import { createService, NAME } from "./service";

await runServiceProcess({
  name: NAME,
  defaultPort: 8082,
  configShape: {
    /** Let live-mode webhooks target private, loopback and link-local addresses (off by default: SSRF). */
    ALLOW_PRIVATE_WEBHOOK_TARGETS: z.enum(["true", "false"]).default("false"),
  },
  create: (deps, config) => createService(deps, { allowPrivateTargets: config.ALLOW_PRIVATE_WEBHOOK_TARGETS === "true" }),
});
