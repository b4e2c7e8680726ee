import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { newCardDataKey } from "@cardhold/authorization-engine";

/**
 * The all-in-one mode's card data key (PAN and CVV are sealed with it): kept in DATA_DIR/card-data-key (mode 0600)
 * so sealed cards stay readable across restarts; a fresh one per process when there is no data directory.
 */
export const ensureCardDataKey = (dataDir: string | undefined): Promise<string> =>
  ensureKeyFile(dataDir, "card-data-key");

/**
 * The all-in-one mode's SECRETS_KEY (webhook signing keys are sealed with it), in DATA_DIR/secrets-key (mode 0600).
 * A key of its own rather than the card data key, as in the distributed mode, where the webhook-registry and the
 * event-dispatcher hold this one and only the authorization-engine holds the card data key.
 */
export const ensureSecretsKey = (dataDir: string | undefined): Promise<string> => ensureKeyFile(dataDir, "secrets-key");

async function ensureKeyFile(dataDir: string | undefined, name: string): Promise<string> {
  if (!dataDir) return newCardDataKey();
  const file = join(dataDir, name);
  if (existsSync(file)) return (await readFile(file, "utf8")).trim();
  const key = newCardDataKey();
  await writeFile(file, key + "\n", { mode: 0o600 });
  return key;
}
