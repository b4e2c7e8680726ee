import { defineConfig } from "vitest/config";

// The example on its own (npm test -w examples/wallet-receiver); the root config runs these tests too.
export default defineConfig({
  test: {
    root: new URL(".", import.meta.url).pathname,
    include: ["src/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
