#!/usr/bin/env node
// The `cardhold` command: runs the TypeScript CLI through tsx (a dev dependency of the workspace).
import { register } from "tsx/esm/api";

register();
await import("../src/main.ts");
