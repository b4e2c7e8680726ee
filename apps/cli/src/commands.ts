import { UsageError, type CliIo } from "./cli-io";
import { commandsUnder, findCommand, USAGE, type Command } from "./command-table";
import { StartRefused } from "./data-dir";
import { ApiError, GatewayUnreachable } from "./gateway-client";

/** Runs the command argv names and gives its exit code (0 done, 1 failed, 2 wrong command line); never throws. */
export async function runCommand(argv: string[], io: CliIo): Promise<number> {
  const command = findCommand(argv);
  try {
    if (!command) return await runWithoutCommand(argv, io);
    const args = argv.slice(command.name.split(" ").length);
    if (wantsHelp(args)) return printUsage(command.usage, io);
    return await command.run(args, io);
  } catch (error) {
    return reportFailure(error, io, command);
  }
}

/** `--help` or `-h` among the options (not after `--`, which ends them). */
function wantsHelp(args: string[]): boolean {
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === "--help" || arg === "-h");
}

function printUsage(usage: string, io: CliIo): number {
  io.stdout(usage);
  return 0;
}

/** No command: the command list, `help <command>`, a group of commands (`simulate`), or a wrong command line. */
async function runWithoutCommand(argv: string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    io.stderr(USAGE);
    return 2;
  }
  if (first === "--help" || first === "-h") return printUsage(USAGE, io);
  if (first === "help") return runCommand([...rest, "--help"], io);
  const group = commandsUnder(first);
  if (group.length === 0) throw new UsageError(`unknown command "${first}"`, USAGE);
  const usage = [...new Set(group.map((command) => command.usage))].join("\n\n");
  if (wantsHelp(rest)) return printUsage(usage, io);
  const choices = group.map((command) => command.name.slice(first.length + 1));
  if (rest.length === 0) throw new UsageError(`${first} needs a subcommand: ${listed(choices)}`, usage);
  throw new UsageError(`unknown command "${first} ${rest[0]}": use ${listed(choices)}`, usage);
}

/** "a", "a or b", "a, b or c". */
const listed = (words: string[]) =>
  words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;

function reportFailure(error: unknown, io: CliIo, command?: Command): number {
  if (error instanceof UsageError) {
    io.stderr(`error: ${error.message}\n\n${error.usage}`);
    return 2;
  }
  // node:util parseArgs: an unknown option, a missing value, a stray argument.
  if (error instanceof TypeError && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS")) {
    const help = command ? `cardhold ${command.name} --help` : "cardhold --help";
    io.stderr(`error: ${parseArgsProblem(error.message)} (see ${help})`);
    return 2;
  }
  if (error instanceof StartRefused) {
    io.stderr(`cardhold: ${error.message}`);
    return 1;
  }
  if (error instanceof ApiError || error instanceof GatewayUnreachable) {
    io.stderr(`error: ${error.message}`);
    return 1;
  }
  io.stderr(`error: ${error instanceof Error ? error.message : String(error)}`);
  return 1;
}

/**
 * parseArgs' first sentence, in lower case like the other messages: "Unknown option '--x'. To specify a positional
 * argument …" → "unknown option '--x'" (these commands take no positional arguments, so the advice misleads).
 */
function parseArgsProblem(message: string): string {
  const first = message.split(". ")[0] ?? message;
  return first.charAt(0).toLowerCase() + first.slice(1);
}
