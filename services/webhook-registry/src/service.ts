import {
  announcedSigningKeySealer,
  prepareSchema,
  registerMessagingGauges,
  sealPlainSigningKeys,
  serviceApp,
  signingKeySealer,
  type Service,
  type ServiceDeps,
  migrationsOf,
  serviceOutboxRelay,
} from "@cardhold/platform";
import { webhookRoutes } from "./http/routes";
import { subscribeToBusinesses } from "./messaging/businesses.consumer";
import { queueRepublish, SCHEMA } from "./store/webhooks.store";
import { webhookUseCases, type WebhookOptions } from "./webhooks";

export const NAME = "webhook-registry";
const MIGRATIONS = migrationsOf("@cardhold/webhook-registry");

export interface RegistryOptions {
  /** 64 hex characters: the AES-256 key signing keys are sealed with at rest and on webhooks.v1 (SECRETS_KEY). */
  secretsKey: string;
  allowPrivateTargets?: boolean;
  /** The clock a key roll's grace starts from (tests set it). */
  now?: () => Date;
}

/** Webhooks and each business's default webhook; publishes the current configuration on webhooks.v1. */
export async function createService(deps: ServiceDeps, opts: RegistryOptions): Promise<Service> {
  await prepareSchema(deps.db, SCHEMA, MIGRATIONS);
  const keys = signingKeySealer(opts.secretsKey);
  // Each sealed row is published again, so webhooks.v1 carries the sealed key and the compacted topic forgets the plain one.
  const sealed = await sealPlainSigningKeys(deps.db, {
    table: "webhooks.webhooks",
    seal: keys.seal,
    afterSealing: queueRepublish,
  });
  if (sealed > 0) deps.logger.info({ sealed }, "sealed signing keys kept in plain by an earlier version");
  const relay = serviceOutboxRelay(deps, SCHEMA);
  registerMessagingGauges(deps, NAME, SCHEMA);
  const options: WebhookOptions = { allowPrivateTargets: opts.allowPrivateTargets ?? false, keys, now: opts.now };
  const webhooks = webhookUseCases(deps.db, relay, options);
  const app = serviceApp(NAME, deps, (app) => webhookRoutes(app, deps.db, webhooks), SCHEMA);
  return {
    name: NAME,
    app,
    async start() {
      await relay.announce();
      const republished = await webhooks.republishQueued();
      if (republished > 0)
        deps.logger.info({ republished }, "published webhooks changed by a migration on webhooks.v1");
      await subscribeToBusinesses(
        deps.db,
        deps.bus,
        relay,
        deps.logger,
        keys,
        announcedSigningKeySealer(opts.secretsKey),
      );
      relay.start();
    },
    stop: () => relay.stop(),
  };
}
