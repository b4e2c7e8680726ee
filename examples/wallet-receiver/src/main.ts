import { z } from "zod";
import { startWalletReceiver } from "./wallet-receiver.js";

/** `npx tsx examples/wallet-receiver/src/main.ts`: settings from the environment, one clear line when one is wrong. */
const settings = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().min(1).default("127.0.0.1"),
  SIGNING_KEY: z.string({ error: "is required: the webhook's signing key (GET /webhooks/:id/secret)" }).min(1, "must not be empty"),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL").optional(),
  DATA_DIR: z.string().min(1).default("./.data/wallet-receiver"),
  WEBHOOK_PATH: z.string().startsWith("/").default("/webhook"),
  OWN_FEE: z.coerce.number().int().min(0).default(0),
});

const parsed = settings.safeParse(process.env);
if (!parsed.success) {
  for (const issue of parsed.error.issues) console.error(`wallet-receiver: ${issue.path.join(".")} ${issue.message}`);
  process.exit(2);
}
const env = parsed.data;

const receiver = await startWalletReceiver({
  signingKey: env.SIGNING_KEY,
  port: env.PORT,
  host: env.HOST,
  webhookPath: env.WEBHOOK_PATH,
  databaseUrl: env.DATABASE_URL,
  dataDir: env.DATA_DIR,
  ownFee: env.OWN_FEE,
});
console.log(`wallet receiver listening: webhook ${receiver.webhookUrl}, admin API ${receiver.url}`);
console.log(`  database: ${env.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : `embedded PGlite in ${env.DATA_DIR}`}`);

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) process.exit(1);
  stopping = true;
  console.log(`${signal}: stopping …`);
  await receiver.stop();
  process.exit(0);
};
process.on("SIGINT", () => void stop("SIGINT"));
process.on("SIGTERM", () => void stop("SIGTERM"));
