import { z } from "zod";
import { DELAYED_REQUEST_SETTINGS, RATE_LIMIT_SETTINGS, rateLimitsFrom } from "@cardhold/api-gateway";
import {
  createLogger,
  exitOnConfigError,
  installLastResortHandlers,
  loadConfig,
  tuneGarbageCollector,
} from "@cardhold/platform";
import { untilAborted, UsageError, type CliIo } from "./cli-io";
import { DEV_USAGE } from "./dev-usage";
import { refuseIfInUse, refuseIfPortInUse } from "./data-dir";

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
  ...RATE_LIMIT_SETTINGS,
  ...DELAYED_REQUEST_SETTINGS,
  /** The ISO 8583 network interface's TCP port (on HOST); unset: off. */
  ISO8583_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  ISO8583_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(60_000).default(4_000),
  ISO8583_RETENTION_HOURS: z.coerce.number().int().min(1).max(8_760).default(168),
};

/** `cardhold dev`: the all-in-one platform, until the io's signal aborts (Ctrl-C, SIGTERM). */
export async function devCommand(args: string[], io: CliIo): Promise<number> {
  if (args.length > 0)
    throw new UsageError(
      `dev takes no arguments, got "${args.join(" ")}": its settings are environment variables`,
      DEV_USAGE,
    );
  const config = exitOnConfigError(() => loadConfig(DEV_SETTINGS, io.env));
  installLastResortHandlers(createLogger("cardhold", config.LOG_LEVEL));
  // Refuse before touching any data: DATA_DIR held by a running platform, then a port in use.
  refuseIfInUse(config.DATA_DIR);
  await refuseIfPortInUse(config.PORT, config.HOST);
  io.stdout(`starting Cardhold (all-in-one, data in ${config.DATA_DIR}) …`);
  // Loaded here, not above: every service comes with it, and the other commands need none.
  const { startAllInOne } = await import("./all-in-one");
  tuneGarbageCollector();
  const platform = await startAllInOne({
    dataDir: config.DATA_DIR,
    port: config.PORT,
    host: config.HOST,
    logLevel: config.LOG_LEVEL,
    defaultWebhookUrl: config.DEFAULT_WEBHOOK_URL,
    operatorToken: config.OPERATOR_TOKEN,
    postgresSettings: config.POSTGRES_SETTINGS,
    rateLimits: rateLimitsFrom(config),
    delayedRequestAfterMs: config.DELAYED_REQUEST_AFTER_MS,
    iso8583:
      config.ISO8583_PORT === undefined
        ? undefined
        : {
            port: config.ISO8583_PORT,
            timeoutMs: config.ISO8583_TIMEOUT_MS,
            retentionHours: config.ISO8583_RETENTION_HOURS,
          },
  });
  const { defaultBusiness } = platform;
  io.stdout(`Cardhold is running at ${platform.url}`);
  io.stdout(`  API reference: ${platform.url}/docs`);
  io.stdout(`  console: ${platform.url}/console (sign in with a secret key)`);
  if (platform.iso8583)
    io.stdout(`  ISO 8583 network interface: ${platform.iso8583.address}:${platform.iso8583.port} (TCP)`);
  io.stdout(`  ${defaultBusiness.created ? "created" : "default"} business ${defaultBusiness.businessId}`);
  io.stdout(`  test key: ${defaultBusiness.testKey}`);
  io.stdout(`  try: curl -s ${platform.url}/customers -H "Authorization: Bearer <the test key>"`);
  await untilAborted(io.signal);
  io.stdout("stopping …");
  await platform.stop();
  return 0;
}
