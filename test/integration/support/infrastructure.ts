import { inject } from "vitest";

export { createScratchDatabase } from "./scratch-database";

/** From the environment, or from containers the global setup started where a Docker engine exists. */
export const KAFKA_BROKERS = inject("kafkaBrokers");
export const DATABASE_URL = inject("databaseUrl");
export const HAS_INFRASTRUCTURE = Boolean(KAFKA_BROKERS && DATABASE_URL);
