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
  // Set by the test runs' global setup, which built before any worker started.
  if (process.env.CARDHOLD_BUILT === "1") return Promise.resolve();
  built ??= promisify(execFile)(process.execPath, ["scripts/build.mjs", "--quiet"], { cwd: ROOT }).then(
    () => undefined,
  );
  return built;
}
