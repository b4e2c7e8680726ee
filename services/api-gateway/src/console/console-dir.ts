/**
 * Where the console's built files are (apps/console/dist): found by walking up from this module to the directory
 * that holds apps/console. The module runs from its source (tests), from services/api-gateway/dist (the distributed
 * mode) or from apps/cli/dist (the all-in-one bundle): each lies below the repository.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const CONSOLE_APP = join("apps", "console");

export function findConsoleDir(from: string = dirname(fileURLToPath(import.meta.url))): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, CONSOLE_APP, "package.json"))) return join(dir, CONSOLE_APP, "dist");
    if (dirname(dir) === dir) return undefined;
  }
}
