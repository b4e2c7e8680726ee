import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startAllInOne } from "./all-in-one";

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe("all-in-one with a data directory", () => {
  it("keeps data, the default business and its working test key across a restart", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "cardhold-restart-"));
    dirs.push(dataDir);
    const first = await startAllInOne({ dataDir, port: 0, logLevel: "silent" });
    expect(first.defaultBusiness.created).toBe(true);
    const key = first.defaultBusiness.testKey;
    const created = await fetch(`${first.url}/customers`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        name: "Persisted",
        reference: "persist-1",
        type: "business",
        verifications: ["tier-1"],
        metadata: {},
        claims: {
          businessInformation: {
            registrationName: "Persisted Ltd",
            phoneNumber: "+2348012345678",
            email: "p@example.com",
          },
        },
      }),
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { data: { id: string } }).data.id;
    await first.stop();
    expect((await stat(join(dataDir, "default-business.json"))).mode & 0o777).toBe(0o600);

    const second = await startAllInOne({ dataDir, port: 0, logLevel: "silent" });
    try {
      expect(second.defaultBusiness).toMatchObject({
        created: false,
        businessId: first.defaultBusiness.businessId,
        testKey: key,
      });
      const res = await fetch(`${second.url}/customers/${id}`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: { name: string } }).data.name).toBe("Persisted");
    } finally {
      await second.stop();
    }
  });
});
