import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
let built: Promise<void> | undefined;

/**
 * Runs the build step (scripts/build.mjs, under a second) once per test process, so a test, bench or chaos run that
 * spawns a service or `cardhold dev` runs the compiled JavaScript that production runs, built from the current sources.
 */
export function ensureBuilt(): Promise<void> {
  built ??= promisify(execFile)(process.execPath, ["scripts/build.mjs", "--quiet"], { cwd: ROOT }).then(() => undefined);
  return built;
}
