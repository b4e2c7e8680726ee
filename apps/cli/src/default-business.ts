import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { GatewayService } from "@cardhold/api-gateway";

export interface DefaultBusiness {
  businessId: string;
  testKey: string;
  created: boolean;
}

type Businesses = GatewayService["businesses"];

/**
 * The all-in-one mode's own business. Its test key is kept in DATA_DIR/default-business.json (mode 0600) so that
 * every start can print a working key; the database itself only stores the key's hash.
 */
export async function ensureDefaultBusiness(
  businesses: Businesses,
  opts: { dataDir?: string; webhookUrl: string },
): Promise<DefaultBusiness> {
  const file = opts.dataDir && join(opts.dataDir, "default-business.json");
  if (file && existsSync(file)) {
    const saved = JSON.parse(await readFile(file, "utf8")) as { businessId: string; testKey: string };
    const caller = await businesses.authenticate(saved.testKey);
    if (caller?.businessId === saved.businessId) return { ...saved, created: false };
  }
  const created = await businesses.createBusiness({ name: "Default business", webhookUrl: opts.webhookUrl });
  const result = { businessId: created.business.id, testKey: created.testKey };
  if (file) await writeFile(file, JSON.stringify(result, null, 2) + "\n", { mode: 0o600 });
  return { ...result, created: true };
}
