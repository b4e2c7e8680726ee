import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { newCardDataKey } from "@cardhold/authorization-engine";

/**
 * The all-in-one mode's card data key (PAN and CVV are sealed with it): kept in DATA_DIR/card-data-key (mode 0600)
 * so sealed cards stay readable across restarts; a fresh one per process when there is no data directory.
 */
export async function ensureCardDataKey(dataDir: string | undefined): Promise<string> {
  if (!dataDir) return newCardDataKey();
  const file = join(dataDir, "card-data-key");
  if (existsSync(file)) return (await readFile(file, "utf8")).trim();
  const key = newCardDataKey();
  await writeFile(file, key + "\n", { mode: 0o600 });
  return key;
}
