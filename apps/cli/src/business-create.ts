import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { output, UsageError, type CliIo } from "./cli-io";
import { operatorClient } from "./gateway-client";

export const BUSINESS_CREATE_USAGE = `usage: cardhold business create --name <name> --webhook-url <url> [options]
  Creates a business through a running gateway's admin endpoint and prints its test key (shown once) and the
  signing key of its test default webhook (what your receiver verifies Service-Signature with).
  Needs OPERATOR_TOKEN, the gateway's operator token, in the environment.

  --name <name>              the business's name (required)
  --webhook-url <url>        where its default webhooks deliver events (required)
  --signing-key <key>        the test default webhook's signing key, 16+ characters (default: a new random key)
  --gateway <url>            default: CARDHOLD_URL or http://127.0.0.1:8080
  --json                     print the business, its test key and the signing key as one JSON line
  --help, -h                 print this help`;

const OPTIONS = {
  name: { type: "string" },
  "webhook-url": { type: "string" },
  "signing-key": { type: "string" },
  gateway: { type: "string" },
  json: { type: "boolean" },
} as const;

interface CreatedBusiness {
  business: { id: string };
  testKey: string;
}

/**
 * `cardhold business create`. The admin endpoint does not answer with a signing key it generates, so the command
 * generates it (as the gateway would: 32 random bytes, hex) and sends it, to be able to print it.
 */
export async function businessCreateCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, options: OPTIONS, strict: true });
  if (!values.name || !values["webhook-url"])
    throw new UsageError("business create needs --name and --webhook-url", BUSINESS_CREATE_USAGE);
  const client = operatorClient(values, io);
  const signingKey = values["signing-key"] ?? randomBytes(32).toString("hex");
  const answer = await client.post<{ data: CreatedBusiness }>("/admin/businesses", {
    name: values.name,
    webhookUrl: values["webhook-url"],
    signingKey,
  });
  const created = { ...answer.data, signingKey };
  output(io, values.json ?? false).result(describeCreated(created), created);
  return 0;
}

function describeCreated(created: CreatedBusiness & { signingKey: string }): string {
  return [
    `business ${created.business.id} created`,
    `  test key (shown once): ${created.testKey}`,
    `  signing key of the test default webhook: ${created.signingKey}`,
    "  (the live default webhook has its own signing key: GET /webhooks/:id/secret with a live key)",
  ].join("\n");
}
