import { fileURLToPath } from "node:url";
import { createOutboxRelay } from "@cardhold/bus";
import { prepareSchema, serviceApp, type Service, type ServiceDeps } from "@cardhold/platform";
import { webhookRoutes } from "./http/routes";
import { subscribeToBusinesses } from "./messaging/businesses.consumer";
import { SCHEMA } from "./store/webhooks.store";
import { webhookUseCases, type WebhookOptions } from "./webhooks";

export const NAME = "webhook-registry";
const MIGRATIONS = fileURLToPath(new URL("../migrations", import.meta.url));

/** Webhooks and each business's default webhook; publishes the current configuration on webhooks.v1. */
export async function createService(deps: ServiceDeps, opts: Partial<WebhookOptions> = {}): Promise<Service> {
  await prepareSchema(deps.db, SCHEMA, MIGRATIONS);
  const relay = createOutboxRelay({ db: deps.db, schema: SCHEMA, bus: deps.bus, logger: deps.logger });
  const webhooks = webhookUseCases(deps.db, relay, { allowPrivateTargets: opts.allowPrivateTargets ?? false });
  const app = serviceApp(NAME, deps, (app) => webhookRoutes(app, deps.db, webhooks));
  return {
    name: NAME,
    app,
    async start() {
      const republished = await webhooks.republishQueued();
      if (republished > 0) deps.logger.info({ republished }, "published webhooks changed by a migration on webhooks.v1");
      await subscribeToBusinesses(deps.db, deps.bus, relay, deps.logger);
      relay.start();
    },
    stop: () => relay.stop(),
  };
}
