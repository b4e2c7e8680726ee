import { parseArgs } from "node:util";
import { z } from "zod";
import { exitOnConfigError, loadConfig } from "@cardhold/platform";
import { startAllInOne } from "./all-in-one";
import { createBusinessCommand } from "./business-create";

const USAGE = `usage: cardhold <command>
  dev                      run the whole platform in this process (embedded Postgres, in-memory bus)
  business create          create a business through a running gateway's admin endpoint
      --name <name> --webhook-url <url> [--gateway <url>] [--json]
      (needs OPERATOR_TOKEN in the environment)`;

async function dev() {
  const config = exitOnConfigError(() =>
    loadConfig({
      PORT: z.coerce.number().int().min(0).max(65535).default(8080),
      HOST: z.string().default("127.0.0.1"),
      DATA_DIR: z.string().default("./.data"),
      LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("warn"),
      DEFAULT_WEBHOOK_URL: z.url().default("http://127.0.0.1:4000/webhook"),
      OPERATOR_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
    }),
  );
  console.log(`starting Cardhold (all-in-one, data in ${config.DATA_DIR}) …`);
  const platform = await startAllInOne({
    dataDir: config.DATA_DIR,
    port: config.PORT,
    host: config.HOST,
    logLevel: config.LOG_LEVEL,
    defaultWebhookUrl: config.DEFAULT_WEBHOOK_URL,
    operatorToken: config.OPERATOR_TOKEN,
  });
  const { defaultBusiness } = platform;
  console.log(`Cardhold is running at ${platform.url}`);
  console.log(`  API reference: ${platform.url}/docs`);
  console.log(`  ${defaultBusiness.created ? "created" : "default"} business ${defaultBusiness.businessId}`);
  console.log(`  test key: ${defaultBusiness.testKey}`);
  console.log(`  try: curl -s ${platform.url}/customers -H "Authorization: Bearer ${defaultBusiness.testKey}"`);
  let stopping = false;
  const stop = async () => {
    if (stopping) process.exit(1);
    stopping = true;
    console.log("stopping …");
    await platform.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}

async function main(argv: string[]) {
  const [command, sub, ...rest] = argv;
  if (command === "dev") return dev();
  if (command === "business" && sub === "create") {
    const { values } = parseArgs({
      args: rest,
      options: { name: { type: "string" }, "webhook-url": { type: "string" }, gateway: { type: "string" }, json: { type: "boolean" } },
    });
    return createBusinessCommand(values);
  }
  console.error(USAGE);
  process.exit(command ? 2 : 0);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
