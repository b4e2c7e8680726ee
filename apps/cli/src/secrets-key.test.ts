import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually";
import { startAllInOne, type AllInOne } from "./all-in-one";

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function defaultSigningKey(platform: AllInOne): Promise<{ id: string; signingKey: string }> {
  const auth = { authorization: `Bearer ${platform.defaultBusiness.testKey}` };
  // The default webhook is made from businesses.v1, which may still sit in an outbox when the bus is drained.
  const id = await eventually(async () => {
    const list = (await (await fetch(`${platform.url}/webhooks?filter=isDefault:true`, { headers: auth })).json()) as {
      data: Array<{ id: string }>;
    };
    expect(list.data).toHaveLength(1);
    return list.data[0]!.id;
  });
  const secret = (await (await fetch(`${platform.url}/webhooks/${id}/secret`, { headers: auth })).json()) as {
    data: { signingKey: string };
  };
  return { id, signingKey: secret.data.signingKey };
}

describe("the all-in-one's SECRETS_KEY", () => {
  it("is kept in DATA_DIR/secrets-key (0600), so sealed signing keys open again after a restart", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "cardhold-secrets-key-"));
    dirs.push(dataDir);
    const first = await startAllInOne({ dataDir, port: 0, logLevel: "silent" });
    let before: { id: string; signingKey: string };
    try {
      await first.drained();
      before = await defaultSigningKey(first);
      const { rows } = await first.db.query<{ row: string }>(
        "SELECT row_to_json(w)::text AS row FROM webhooks.webhooks w WHERE id = $1",
        [before.id],
      );
      expect(rows[0]!.row).not.toContain(before.signingKey);
    } finally {
      await first.stop();
    }
    const file = join(dataDir, "secrets-key");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const key = (await readFile(file, "utf8")).trim();
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(key).not.toBe((await readFile(join(dataDir, "card-data-key"), "utf8")).trim());

    const second = await startAllInOne({ dataDir, port: 0, logLevel: "silent" });
    try {
      expect(await defaultSigningKey(second)).toEqual(before);
    } finally {
      await second.stop();
    }
  }, 120_000);
});
