import { describe, expect, it } from "vitest";
import { readSettings } from "./settings.js";

describe("the wallet receiver's settings", () => {
  it("takes the signing key from CARDHOLD_SIGNING_KEY, with the defaults for the rest", () => {
    expect(readSettings({ CARDHOLD_SIGNING_KEY: "key-0123456789" })).toEqual({
      settings: {
        CARDHOLD_SIGNING_KEY: "key-0123456789",
        PORT: 4000,
        HOST: "127.0.0.1",
        DATA_DIR: "./.data/wallet-receiver",
        WEBHOOK_PATH: "/webhook",
        OWN_FEE: 0,
      },
      warnings: [],
    });
  });

  it("still takes the deprecated SIGNING_KEY, with a warning, and prefers CARDHOLD_SIGNING_KEY when both are set", () => {
    const old = readSettings({ SIGNING_KEY: "old-name-key" });
    expect(old).toMatchObject({ settings: { CARDHOLD_SIGNING_KEY: "old-name-key" } });
    expect("warnings" in old && old.warnings).toEqual([
      "wallet-receiver: SIGNING_KEY is deprecated and will stop working: set CARDHOLD_SIGNING_KEY instead",
    ]);
    expect(readSettings({ SIGNING_KEY: "old", CARDHOLD_SIGNING_KEY: "new" })).toMatchObject({
      settings: { CARDHOLD_SIGNING_KEY: "new" },
      warnings: [],
    });
  });

  it("names each wrong setting in one line", () => {
    expect(readSettings({})).toEqual({
      problems: [
        "wallet-receiver: CARDHOLD_SIGNING_KEY is required: the webhook's signing key (GET /webhooks/:id/secret)",
      ],
    });
    expect(readSettings({ CARDHOLD_SIGNING_KEY: "k", PORT: "http", DATABASE_URL: "mysql://x" })).toEqual({
      problems: [
        expect.stringMatching(/^wallet-receiver: PORT /),
        "wallet-receiver: DATABASE_URL must be a postgres:// URL",
      ],
    });
  });
});
