import { fileURLToPath } from "node:url";
import { prepareSchema, serviceApp, type Service, type ServiceDeps } from "@cardhold/platform";
import { subscribeToEvents, subscribeToWebhooks } from "./messaging/consumers";
import { SCHEMA } from "./store/dispatcher.store";

export const NAME = "event-dispatcher";
const MIGRATIONS = fileURLToPath(new URL("../migrations", import.meta.url));

/** Keeps the webhook routing table and the event log; delivery is built on these. */
export async function createService(deps: ServiceDeps): Promise<Service> {
  await prepareSchema(deps.db, SCHEMA, MIGRATIONS);
  const app = serviceApp(NAME, deps, () => undefined);
  return {
    name: NAME,
    app,
    async start() {
      await subscribeToWebhooks(deps.db, deps.bus, deps.logger);
      await subscribeToEvents(deps.db, deps.bus, deps.logger);
    },
    async stop() {},
  };
}
