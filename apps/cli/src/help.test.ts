import { execFile, execFileSync } from "node:child_process";
import { Server } from "node:net";
import { promisify } from "node:util";
import { ensureBuilt } from "../../../test/support/build";
import { afterEach, describe, expect, it, vi } from "vitest";
import { captureIo } from "./cli-test-io";
import { COMMANDS, commandsUnder, USAGE } from "./command-table";
import { runCommand } from "./commands";

// What a command would use if it ran: a key, an operator token, a gateway that is not there.
const ENV = {
  CARDHOLD_KEY: "sk.test.help",
  CARDHOLD_URL: "http://127.0.0.1:9",
  OPERATOR_TOKEN: "operator-token-help-tests",
  PORT: "1",
};

async function run(argv: string[]) {
  const listening = vi.spyOn(Server.prototype, "listen");
  const fetching = vi.spyOn(globalThis, "fetch");
  const captured = captureIo(ENV);
  const code = await runCommand(argv, captured.io);
  return { code, ports: listening.mock.calls.length, requests: fetching.mock.calls.length, ...captured };
}
afterEach(() => vi.restoreAllMocks());

const words = (name: string) => name.split(" ");
const groups = [...new Set(COMMANDS.filter((c) => c.name.includes(" ")).map((c) => words(c.name)[0]!))];

const cases: [argv: string[], usage: string][] = [
  ...COMMANDS.flatMap((c): [string[], string][] => [
    [[...words(c.name), "--help"], c.usage],
    [[...words(c.name), "-h"], c.usage],
    [[...words(c.name), "--gateway", "http://127.0.0.1:9", "--help"], c.usage],
    [["help", ...words(c.name)], c.usage],
  ]),
  ...groups.flatMap((group): [string[], string][] => [
    [[group, "--help"], commandsUnder(group)[0]!.usage],
    [[group, "-h"], commandsUnder(group)[0]!.usage],
    [["help", group], commandsUnder(group)[0]!.usage],
  ]),
  [["--help"], USAGE],
  [["-h"], USAGE],
  [["help"], USAGE],
];

describe("--help on every command", () => {
  it.each(cases)("cardhold %j prints its usage, exits 0, and starts and contacts nothing", async (argv, usage) => {
    const r = await run(argv);
    expect(r.code).toBe(0);
    expect(r.out()).toContain(usage);
    expect(r.err()).toBe("");
    expect(r.ports).toBe(0);
    expect(r.requests).toBe(0);
  });

  it("the command list names every command", () => {
    for (const command of COMMANDS) expect(USAGE).toContain(`  ${command.name} `);
  });

  it("the built bin, in a process of its own, prints the same and writes nothing else", async () => {
    await ensureBuilt();
    const cardhold = (...args: string[]) =>
      promisify(execFile)(process.execPath, ["apps/cli/bin/cardhold.mjs", ...args], {
        env: { ...process.env, ...ENV },
      });
    const [list, dev] = await Promise.all([cardhold("--help"), cardhold("dev", "--help")]);
    expect(list).toEqual({ stdout: USAGE + "\n", stderr: "" });
    expect(dev).toEqual({ stdout: COMMANDS.find((c) => c.name === "dev")!.usage + "\n", stderr: "" });
  });
});

describe("wrong command lines", () => {
  it.each([
    [[], "usage: cardhold <command>"],
    [["nope"], 'error: unknown command "nope"'],
    [["simulate"], "error: simulate needs a subcommand: check, capture, update or reverse"],
    [["events", "head"], 'error: unknown command "events head": use tail'],
    [["business"], "error: business needs a subcommand: create"],
    [["help", "nope"], 'error: unknown command "nope"'],
    [["listen", "--colour"], "error: unknown option '--colour' (see cardhold listen --help)"],
    [["dev", "now"], 'error: dev takes no arguments, got "now"'],
  ])("cardhold %j exits 2 with the problem, and the usage or where to find it, on stderr", async (argv, message) => {
    const r = await run(argv);
    expect(r.code).toBe(2);
    expect(r.out()).toBe("");
    expect(r.err()).toContain(message);
    expect(r.err()).toMatch(/usage: cardhold|--help\)$/);
    expect(r.requests).toBe(0);
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
