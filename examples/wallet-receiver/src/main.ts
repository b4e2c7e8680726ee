import { readSettings } from "./settings.js";
import { startWalletReceiver } from "./wallet-receiver.js";

/** `npx tsx examples/wallet-receiver/src/main.ts`: settings from the environment, one clear line when one is wrong. */
const read = readSettings(process.env);
if ("problems" in read) {
  for (const problem of read.problems) console.error(problem);
  process.exit(2);
}
for (const warning of read.warnings) console.error(warning);
const settings = read.settings;

const receiver = await startWalletReceiver({
  signingKey: settings.CARDHOLD_SIGNING_KEY,
  port: settings.PORT,
  host: settings.HOST,
  webhookPath: settings.WEBHOOK_PATH,
  databaseUrl: settings.DATABASE_URL,
  dataDir: settings.DATA_DIR,
  ownFee: settings.OWN_FEE,
});
console.log(`wallet receiver listening: webhook ${receiver.webhookUrl}, admin API ${receiver.url}`);
console.log(
  `  database: ${settings.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : `embedded PGlite in ${settings.DATA_DIR}`}`,
);

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
