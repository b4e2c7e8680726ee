import { BUSINESS_CREATE_USAGE, businessCreateCommand } from "./business-create";
import type { CliIo } from "./cli-io";
import { DEV_USAGE } from "./dev-usage";
import { EVENTS_TAIL_USAGE, eventsTailCommand } from "./events-tail";
import { LISTEN_USAGE, listenCommand } from "./listen";
import { SIMULATE_USAGE, SIMULATION_KINDS, simulateCommand, type SimulationKind } from "./simulate";

/** One command of `cardhold`. `--help` and `-h` are answered with its usage before it runs. */
export interface Command {
  /** The words that name it, e.g. "business create". */
  readonly name: string;
  /** Its line in `cardhold --help`. */
  readonly summary: string;
  readonly usage: string;
  /** Runs it with the arguments after its name; resolves to the exit code. */
  run(args: string[], io: CliIo): Promise<number>;
}

const SIMULATION_SUMMARIES: Record<SimulationKind, string> = {
  check: "test mode: the card network asks for a card's balance",
  capture: "test mode: the card network asks for a purchase on a card",
  update: "test mode: a purchase, then the merchant changes its amount",
  reverse: "test mode: a purchase, then the card network reverses it",
};

export const COMMANDS: readonly Command[] = [
  {
    name: "dev",
    summary: "run the whole platform in this process (embedded PostgreSQL, in-memory bus)",
    usage: DEV_USAGE,
    run: async (args, io) => (await import("./dev")).devCommand(args, io),
  },
  {
    name: "business create",
    summary: "create a business, print its test key and signing key (needs OPERATOR_TOKEN)",
    usage: BUSINESS_CREATE_USAGE,
    run: businessCreateCommand,
  },
  ...SIMULATION_KINDS.map((kind) => ({
    name: `simulate ${kind}`,
    summary: SIMULATION_SUMMARIES[kind],
    usage: SIMULATE_USAGE,
    run: (args: string[], io: CliIo) => simulateCommand(kind, args, io),
  })),
  {
    name: "events tail",
    summary: "print the business's latest events; --follow for new ones",
    usage: EVENTS_TAIL_USAGE,
    run: eventsTailCommand,
  },
  {
    name: "listen",
    summary: "forward the business's new events, signed, to a local receiver",
    usage: LISTEN_USAGE,
    run: listenCommand,
  },
];

export const USAGE = [
  "usage: cardhold <command> [options]",
  ...COMMANDS.map((command) => `  ${command.name.padEnd(20)} ${command.summary}`),
  `  ${"help [<command>]".padEnd(20)} this list, or a command's usage (as <command> --help prints it)`,
  "",
  "Every command but dev takes the gateway from --gateway or CARDHOLD_URL (default http://127.0.0.1:8080);",
  "simulate, events and listen take the business's secret key from --key or CARDHOLD_KEY. --json prints one",
  "JSON object per line.",
].join("\n");

/** The command that argv starts with, if any. */
export function findCommand(argv: readonly string[]): Command | undefined {
  return COMMANDS.find((command) => command.name.split(" ").every((word, i) => argv[i] === word));
}

/** The commands whose name starts with this word and more: `simulate` gives `simulate check`, … */
export function commandsUnder(word: string): Command[] {
  return COMMANDS.filter((command) => command.name.startsWith(`${word} `));
}
