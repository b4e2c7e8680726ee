import {
  prepareSchema,
  registerMessagingGauges,
  serviceApp,
  type Service,
  type ServiceDeps,
  migrationsOf,
  serviceOutboxRelay,
} from "@cardhold/platform";
import { customerUseCases } from "./customers";
import { customerRoutes } from "./http/routes";
import { SCHEMA } from "./store/customers.store";

export const NAME = "customer-service";
const MIGRATIONS = migrationsOf("@cardhold/customer-service");

/** Customers: create, read, update, list; every change is published on customers.v1 through the outbox. */
export async function createService(deps: ServiceDeps): Promise<Service> {
  await prepareSchema(deps.db, SCHEMA, MIGRATIONS);
  const relay = serviceOutboxRelay(deps, SCHEMA);
  registerMessagingGauges(deps, NAME, SCHEMA);
  const customers = customerUseCases(deps.db, relay);
  const app = serviceApp(NAME, deps, (app) => customerRoutes(app, deps.db, customers), SCHEMA);
  return {
    name: NAME,
    app,
    async start() {
      await relay.announce();
      relay.start();
    },
    stop: () => relay.stop(),
  };
}
