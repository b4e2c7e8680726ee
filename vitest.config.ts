import { defineConfig } from "vitest/config";

// Unit and in-process tests: no Kafka and no PostgreSQL server needed (an embedded PostgreSQL from npm serves them).
export default defineConfig({
  test: {
    include: [
      "packages/*/src/**/*.test.ts",
      "services/*/src/**/*.test.ts",
      "services/*/test/**/*.test.ts",
      "apps/*/src/**/*.test.ts",
      "apps/*/test/**/*.test.ts",
      "examples/*/src/**/*.test.ts",
      "bench/support/*.test.ts",
      "test/chaos/*.test.ts",
    ],
    exclude: ["**/node_modules/**", "**/*.int.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ["test/support/build-global-setup.ts", "test/support/postgres-global-setup.ts"],
  },
});
