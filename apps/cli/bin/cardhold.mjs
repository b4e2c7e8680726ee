#!/usr/bin/env node
// The `cardhold` command: the compiled CLI (npm run build; npm install runs it too).
import { existsSync } from "node:fs";

const compiled = new URL("../dist/main.js", import.meta.url);
if (!existsSync(compiled)) {
  console.error("cardhold: the command is not built yet: run `npm run build` in the Cardhold checkout");
  process.exit(1);
}
process.setSourceMapsEnabled(true);
await import(compiled.href);
