import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { captureIo } from "./cli-test-io";
import { runClientCommand } from "./commands";

const cardhold = (...args: string[]) =>
  execFileSync(process.execPath, ["--import", "tsx", "apps/cli/src/main.ts", ...args], { encoding: "utf8", env: { ...process.env, PORT: "1" } });

describe("--help", () => {
  it("events --help prints the usage and succeeds", async () => {
    const captured = captureIo();
    expect(await runClientCommand(["events", "--help"], captured.io)).toBe(0);
    expect(captured.out()).toContain("usage: cardhold events tail");
    expect(captured.err()).toBe("");
  });

  it("business create --help and dev --help print their usage and start nothing", () => {
    expect(cardhold("business", "create", "--help")).toContain("usage: cardhold business create --name");
    expect(cardhold("dev", "--help")).toContain("cardhold dev — every service in one process");
  });
});

describe("dev settings", () => {
  const dev = (settings: string) => {
    try {
      execFileSync(process.execPath, ["--import", "tsx", "apps/cli/src/main.ts", "dev"], {
        encoding: "utf8",
        stdio: "pipe",
        env: { ...process.env, POSTGRES_SETTINGS: settings, DATA_DIR: "/nonexistent/never-created" },
      });
      return { code: 0, err: "" };
    } catch (error) {
      const failed = error as { status: number; stderr: string };
      return { code: failed.status, err: failed.stderr };
    }
  };

  it("refuses POSTGRES_SETTINGS that are not a JSON object of server settings, before touching any data", () => {
    for (const bad of ["not json", '{"shared_preload_libraries; DROP":"x"}', '{"work_mem":true}']) {
      const { code, err } = dev(bad);
      expect(code).not.toBe(0);
      expect(err).toContain("POSTGRES_SETTINGS");
    }
  });
});
