import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    kafkaBrokers: string | undefined;
    databaseUrl: string | undefined;
  }
}

/**
 * The integration suite's Kafka and PostgreSQL: KAFKA_BROKERS and DATABASE_URL when both are set (CI, a local
 * infra/kafka broker); otherwise containers through testcontainers where a Docker engine exists; otherwise none,
 * and every integration test is skipped with one line saying why.
 */
export default async function setup(project: TestProject) {
  const { KAFKA_BROKERS, DATABASE_URL } = process.env;
  if (KAFKA_BROKERS && DATABASE_URL) {
    project.provide("kafkaBrokers", KAFKA_BROKERS);
    project.provide("databaseUrl", DATABASE_URL);
    return;
  }
  try {
    const { PostgreSqlContainer } = await import("@testcontainers/postgresql");
    const { KafkaContainer } = await import("@testcontainers/kafka");
    const postgres = await new PostgreSqlContainer("postgres:15").start();
    const kafka = await new KafkaContainer("confluentinc/cp-kafka:7.6.1").withKraft().start();
    project.provide("databaseUrl", postgres.getConnectionUri());
    project.provide("kafkaBrokers", `${kafka.getHost()}:${kafka.getMappedPort(9093)}`);
    return async () => {
      await kafka.stop();
      await postgres.stop();
    };
  } catch (error) {
    console.error(
      `integration suite skipped: KAFKA_BROKERS and DATABASE_URL are not set and no containers could start (${(error as Error).message})`,
    );
    project.provide("kafkaBrokers", undefined);
    project.provide("databaseUrl", undefined);
  }
}
