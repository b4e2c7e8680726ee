import { defineConfig } from "vitest/config";

// Integration suite: separate service processes against real Kafka and PostgreSQL.
// Needs KAFKA_BROKERS and DATABASE_URL; see README "Tests".
export default defineConfig({
  test: {
    include: ["test/integration/**/*.int.test.ts", "services/*/test/**/*.int.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
