import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["**/node_modules/**", "**/dist/**", "**/.data/**", "infra/kafka/lib/**", "coverage/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": ["error", { allow: ["error"] }],
    },
  },
  { files: ["apps/cli/**", "bench/**", "infra/**", "examples/**", "scripts/**"], rules: { "no-console": "off" } },
  // Plain Node scripts (the build step, bins): Node's globals.
  {
    files: ["**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
  },
  // Tests read JSON answers whose shape is what they assert.
  { files: ["**/*.test.ts", "test/**"], rules: { "@typescript-eslint/no-explicit-any": "off" } },
);
