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
