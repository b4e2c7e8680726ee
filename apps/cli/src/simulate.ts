import { parseArgs } from "node:util";
import { output, UsageError, type CliIo } from "./cli-io";
import { gatewayClient } from "./gateway-client";

export const SIMULATE_USAGE = `usage: cardhold simulate <check|capture|update|reverse> --card <c.id> [options]
  Plays the card network in test mode: asks for an authorization on a card and prints it once it is decided
  (the platform sends the events to your webhook, and its answer decides).

  check                      balance and holder-name inquiry
  capture                    a purchase: --amount (and --fees)
  update                     a purchase, then an amount change: --amount, --update-amount (and fees);
                             with --authorization, changes that approved authorization instead
  reverse                    a purchase, then a network reversal: --amount; with --authorization, reverses that one

  --card <c.id>              the card (required)
  --amount <n>               minor units (required for capture, and for update/reverse without --authorization)
  --fees <n>                 minor units (default 0)
  --update-amount <n>        the new amount (update; required)
  --update-fees <n>          the new fees (update; default 0)
  --authorization <c.auth.id>
                             an approved authorization to update or reverse
  --channel <channel>        atm, pos, online or in-app (default online)
  --mcc <nnnn>               merchant category code
  --merchant-descriptor <s>  the merchant's name and location as the network shows it
  --merchant <mch.id>        the merchant
  --reference <s>            the network's reference (the same reference is the same authorization)
  --key <sk.test.…>          the business's test key (default: CARDHOLD_KEY)
  --gateway <url>            default: CARDHOLD_URL or http://127.0.0.1:8080
  --json                     print the authorization as one JSON line
  --help, -h                 print this help`;

const ENDPOINTS = { check: "check", capture: "capture", update: "update-capture", reverse: "reverse-capture" } as const;
export type SimulationKind = keyof typeof ENDPOINTS;
export const SIMULATION_KINDS = Object.keys(ENDPOINTS) as SimulationKind[];

/** What the progress line calls each simulation. */
const DESCRIPTIONS: Record<SimulationKind, string> = {
  check: "a balance check",
  capture: "a capture",
  update: "an amount update",
  reverse: "a reversal",
};

const OPTIONS = {
  card: { type: "string" },
  amount: { type: "string" },
  fees: { type: "string" },
  "update-amount": { type: "string" },
  "update-fees": { type: "string" },
  authorization: { type: "string" },
  channel: { type: "string" },
  mcc: { type: "string" },
  "merchant-descriptor": { type: "string" },
  merchant: { type: "string" },
  reference: { type: "string" },
  key: { type: "string" },
  gateway: { type: "string" },
  json: { type: "boolean" },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>["values"];

function minorUnits(values: Values, name: "amount" | "fees" | "update-amount" | "update-fees"): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw)))
    throw new UsageError(`--${name} must be a whole number of minor units, got "${raw}"`, SIMULATE_USAGE);
  return Number(raw);
}

/** The request body of the simulation endpoint, from the command line. */
export function simulationBody(kind: SimulationKind, values: Values): Record<string, unknown> {
  const amount = minorUnits(values, "amount");
  const fees = minorUnits(values, "fees") ?? 0;
  const network = {
    channel: values.channel ?? "online",
    ...(values.mcc !== undefined ? { mcc: values.mcc } : {}),
    ...(values["merchant-descriptor"] !== undefined ? { merchantDescriptor: values["merchant-descriptor"] } : {}),
    ...(values.merchant !== undefined ? { merchant: values.merchant } : {}),
    ...(values.reference !== undefined ? { reference: values.reference } : {}),
  };
  if (kind !== "update" && (values["update-amount"] ?? values["update-fees"]) !== undefined) {
    throw new UsageError("--update-amount and --update-fees are for simulate update", SIMULATE_USAGE);
  }
  if (kind !== "update" && kind !== "reverse" && values.authorization !== undefined) {
    throw new UsageError("--authorization is for simulate update and reverse", SIMULATE_USAGE);
  }
  if (kind === "check") return network;
  const existing = values.authorization;
  if (amount === undefined && !existing) {
    throw new UsageError(
      `simulate ${kind} needs --amount${kind === "capture" ? "" : " (or --authorization)"}`,
      SIMULATE_USAGE,
    );
  }
  const purchase = {
    ...(amount !== undefined ? { amount } : {}),
    fees,
    ...network,
    ...(existing ? { authorization: existing } : {}),
  };
  if (kind !== "update") return purchase;
  const updateAmount = minorUnits(values, "update-amount");
  if (updateAmount === undefined) throw new UsageError("simulate update needs --update-amount", SIMULATE_USAGE);
  return { ...purchase, updateAmount, updateFees: minorUnits(values, "update-fees") ?? 0 };
}

interface AuthorizationRecord {
  id: string;
  type: string;
  status: string;
  amount: number;
  fees?: number;
  currency: string;
  channel?: string;
  decisionType?: string | null;
  declineReason?: string | null;
  statusReason?: string | null;
  cardBalance?: number;
  cardHolderName?: string;
}

const DECIDED_BY: Record<string, string> = { "direct-response": "your receiver", "system-response": "the platform" };

export function describeAuthorization(a: AuthorizationRecord): string {
  const lines = [`${a.id}  ${a.type}  ${a.status.toUpperCase()}`];
  lines.push(`  amount ${a.amount} + fees ${a.fees ?? 0} ${a.currency} (minor units), channel ${a.channel ?? "?"}`);
  if (a.cardBalance !== undefined) lines.push(`  card balance ${a.cardBalance}, holder ${a.cardHolderName ?? "?"}`);
  if (a.decisionType) lines.push(`  decided by ${DECIDED_BY[a.decisionType] ?? a.decisionType} (${a.decisionType})`);
  if (a.declineReason) lines.push(`  decline reason: ${a.declineReason}`);
  if (a.statusReason) lines.push(`  status reason: ${a.statusReason}`);
  return lines.join("\n");
}

/** `cardhold simulate <kind>`: 0 when the platform answered with the decided authorization, 1 on an API error. */
export async function simulateCommand(kind: SimulationKind, args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, options: OPTIONS, strict: true });
  if (!values.card) throw new UsageError(`simulate ${kind} needs --card <c.id>`, SIMULATE_USAGE);
  const body = simulationBody(kind, values);
  const client = gatewayClient(values, io);
  const out = output(io, values.json ?? false);
  const path = `/simulation/cards/${encodeURIComponent(values.card)}/request-authorization/${ENDPOINTS[kind]}`;
  out.progress(
    `simulating ${DESCRIPTIONS[kind]} on ${values.card}: waiting for the decision (your webhook has 4 s to answer) …`,
  );
  const answer = await client.post<{ data: AuthorizationRecord }>(path, body);
  out.result(describeAuthorization(answer.data), answer.data);
  return 0;
}
