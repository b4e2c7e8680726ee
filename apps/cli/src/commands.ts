import { UsageError, type CliIo } from "./cli-io";
import { EVENTS_TAIL_USAGE, eventsTailCommand } from "./events-tail";
import { ApiError, GatewayUnreachable } from "./gateway-client";
import { listenCommand } from "./listen";
import { simulateCommand } from "./simulate";

export const USAGE = `usage: cardhold <command> [--help]
  dev                      run the whole platform in this process (embedded Postgres, in-memory bus)
  business create          create a business through a running gateway's admin endpoint
      --name <name> --webhook-url <url> [--gateway <url>] [--json]   (needs OPERATOR_TOKEN in the environment)
  simulate <kind>          test mode: play the card network (check, capture, update, reverse) on a card
  events tail              print the business's latest events; --follow for new ones
  listen                   forward the business's new events, signed, to a local receiver (--forward-to <url>)

  simulate, events and listen take the business's secret key from --key or CARDHOLD_KEY, and the gateway from
  --gateway or CARDHOLD_URL (default http://127.0.0.1:8080). --json prints one JSON object per line.`;

/** The API-client commands (simulate, events, listen): runs one and gives its exit code; never throws. */
export async function runClientCommand(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === "simulate") return await simulateCommand(rest, io);
    if (command === "listen") return await listenCommand(rest, io);
    if (command === "events") {
      const [sub, ...args] = rest;
      if (sub === "tail") return await eventsTailCommand(args, io);
      if (sub === "--help" || sub === "-h") {
        io.stdout(EVENTS_TAIL_USAGE);
        return 0;
      }
      throw new UsageError(sub ? `unknown events command "${sub}"` : "events needs a subcommand", EVENTS_TAIL_USAGE);
    }
    throw new UsageError(`unknown command "${command}"`, USAGE);
  } catch (error) {
    return reportFailure(error, io);
  }
}

function reportFailure(error: unknown, io: CliIo): number {
  if (error instanceof UsageError) {
    io.stderr(`error: ${error.message}\n\n${error.usage}`);
    return 2;
  }
  // node:util parseArgs: an unknown option, a missing value, a stray argument.
  if (error instanceof TypeError && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS")) {
    io.stderr(`error: ${error.message}\n(see --help)`);
    return 2;
  }
  if (error instanceof ApiError || error instanceof GatewayUnreachable) {
    io.stderr(`error: ${error.message}`);
    return 1;
  }
  io.stderr(`error: ${error instanceof Error ? error.message : String(error)}`);
  return 1;
}
