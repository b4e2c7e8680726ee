import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface WalletProcess {
  /** The admin API. */
  url: string;
  webhookUrl: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * The reference wallet receiver (examples/wallet-receiver) as its own process, as a business runs it: apart from the
 * run's load generator and balancers, so neither slows the other down.
 */
export async function startWalletProcess(opts: {
  port: number;
  signingKey: string;
  databaseUrl?: string;
  /** Where its PGlite keeps the wallets when there is no databaseUrl (the run's own directory). */
  dataDir: string;
}): Promise<WalletProcess> {
  // Without a database URL the receiver keeps its wallets in an in-memory PGlite: the variable must be absent, not empty.
  const { DATABASE_URL: _inherited, ...inherited } = process.env;
  const child = spawn(process.execPath, ["--import", "tsx", "examples/wallet-receiver/src/main.ts"], {
    cwd: ROOT,
    env: {
      ...inherited,
      PORT: String(opts.port),
      CARDHOLD_SIGNING_KEY: opts.signingKey,
      DATA_DIR: opts.dataDir,
      ...(opts.databaseUrl && { DATABASE_URL: opts.databaseUrl }),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${opts.port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the wallet receiver exited with ${child.exitCode}:\n${output}`);
    const healthy = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > deadline) throw new Error(`the wallet receiver did not start within 60 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    webhookUrl: `${url}/webhook`,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
