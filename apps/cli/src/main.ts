import { parseArgs } from "node:util";
import { z } from "zod";
import { createLogger, exitOnConfigError, installLastResortHandlers, loadConfig } from "@cardhold/platform";
import { startAllInOne } from "./all-in-one";
import { refuseIfInUse, refuseIfPortInUse, StartRefused } from "./data-dir";
import { BUSINESS_CREATE_USAGE, createBusinessCommand } from "./business-create";
import { processIo } from "./cli-io";
import { runClientCommand, USAGE } from "./commands";

const DEV_SETTINGS = {
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default("127.0.0.1"),
  DATA_DIR: z.string().default("./.data"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("warn"),
  DEFAULT_WEBHOOK_URL: z.url().default("http://127.0.0.1:4000/webhook"),
  OPERATOR_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  POSTGRES_SETTINGS: z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: "must be a JSON object" });
        return z.NEVER;
      }
    })
    .pipe(z.record(z.string().regex(/^[a-z_.]+$/, "a server setting's name"), z.union([z.string(), z.number()])))
    .optional(),
};

const DEV_USAGE = `cardhold dev — every service in one process, on an embedded PostgreSQL under DATA_DIR

Settings (environment variables): PORT (8080), HOST (127.0.0.1), DATA_DIR (./.data), LOG_LEVEL (warn),
DEFAULT_WEBHOOK_URL (http://127.0.0.1:4000/webhook), OPERATOR_TOKEN (unset: no admin endpoints),
POSTGRES_SETTINGS (extra settings of the embedded PostgreSQL as a JSON object, e.g.
'{"shared_preload_libraries":"pg_stat_statements"}' to profile statements).`;

async function dev(args: string[]) {
  if (args.includes("--help") || args.includes("-h")) return void console.log(DEV_USAGE);
  const config = exitOnConfigError(() => loadConfig(DEV_SETTINGS));
  installLastResortHandlers(createLogger("cardhold", config.LOG_LEVEL));
  // Refuse before touching any data: DATA_DIR held by a running platform, then a port in use.
  refuseIfInUse(config.DATA_DIR);
  await refuseIfPortInUse(config.PORT, config.HOST);
  console.log(`starting Cardhold (all-in-one, data in ${config.DATA_DIR}) …`);
  const platform = await startAllInOne({
    dataDir: config.DATA_DIR,
    port: config.PORT,
    host: config.HOST,
    logLevel: config.LOG_LEVEL,
    defaultWebhookUrl: config.DEFAULT_WEBHOOK_URL,
    operatorToken: config.OPERATOR_TOKEN,
    postgresSettings: config.POSTGRES_SETTINGS,
  });
  const { defaultBusiness } = platform;
  console.log(`Cardhold is running at ${platform.url}`);
  console.log(`  API reference: ${platform.url}/docs`);
  console.log(`  ${defaultBusiness.created ? "created" : "default"} business ${defaultBusiness.businessId}`);
  console.log(`  test key: ${defaultBusiness.testKey}`);
  console.log(`  try: curl -s ${platform.url}/customers -H "Authorization: Bearer <the test key>"`);
  let stoppingSince = 0;
  const stop = async () => {
    // npm and tsx pass a terminal's Ctrl-C on as well: a second signal within a second is the same one.
    if (stoppingSince) return Date.now() - stoppingSince > 1_000 ? process.exit(1) : undefined;
    stoppingSince = Date.now();
    console.log("stopping …");
    await platform.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}

/** simulate, events, listen: Ctrl-C ends a --follow or listen loop cleanly (exit 0); a second one exits at once. */
async function clientCommand(argv: string[]) {
  const controller = new AbortController();
  const interrupt = () => (controller.signal.aborted ? process.exit(130) : controller.abort());
  process.on("SIGINT", interrupt);
  process.on("SIGTERM", interrupt);
  process.exitCode = await runClientCommand(argv, processIo(controller.signal));
  process.off("SIGINT", interrupt);
  process.off("SIGTERM", interrupt);
}

async function main(argv: string[]) {
  const [command, sub, ...rest] = argv;
  if (command === "dev") return dev(argv.slice(1));
  if (command === "business" && sub === "create") {
    const { values } = parseArgs({
      args: rest,
      options: {
        name: { type: "string" }, "webhook-url": { type: "string" }, gateway: { type: "string" }, json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
    if (values.help) return void console.log(BUSINESS_CREATE_USAGE);
    return createBusinessCommand(values);
  }
  if (command === "simulate" || command === "events" || command === "listen") return clientCommand(argv);
  if (command === "--help" || command === "help") {
    console.log(USAGE);
    return;
  }
  console.error(command ? `error: unknown command "${[command, sub].filter(Boolean).join(" ")}"\n\n${USAGE}` : USAGE);
  process.exit(2);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof StartRefused ? `cardhold: ${error.message}` : error instanceof Error ? error.message : String(error));
  process.exit(1);
});
