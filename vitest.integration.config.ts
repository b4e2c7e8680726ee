import { defineConfig } from "vitest/config";

// Integration suite: separate service processes against real Kafka and PostgreSQL.
// KAFKA_BROKERS and DATABASE_URL, or containers where Docker exists (test/integration/global-setup.ts).
export default defineConfig({
  test: {
    include: ["test/integration/**/*.int.test.ts", "services/*/test/**/*.int.test.ts", "test/e2e/**/*.e2e.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    globalSetup: ["test/support/build-global-setup.ts", "test/integration/global-setup.ts"],
  },
});
