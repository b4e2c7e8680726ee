import { migrateMessaging } from "@cardhold/bus";
import { customerProjection, serviceApp, type Service, type ServiceDeps } from "@cardhold/platform";

export const NAME = "authorization-engine";
export const SCHEMA = "engine";

/** Cards, accounts, the ledger and authorizations (their routes come with the engine's issue). Today it keeps the customer projection it will check customers against. */
export async function createService(deps: ServiceDeps): Promise<Service> {
  await migrateMessaging(deps.db, SCHEMA);
  const customers = customerProjection(deps.db, SCHEMA, NAME);
  await customers.migrate();
  const app = serviceApp(NAME, deps, () => undefined);
  return {
    name: NAME,
    app,
    async start() {
      await customers.subscribe(deps.bus, deps.logger);
    },
    async stop() {},
  };
}
