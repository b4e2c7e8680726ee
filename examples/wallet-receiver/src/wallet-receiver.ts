import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { createReceiver, receiverRouter } from "@cardhold/receiver";
import { adminRoutes } from "./admin-routes.js";
import { openDatabase, type Database } from "./database.js";
import { databaseDeliveryStore } from "./deliveries.store.js";
import { errorAnswer, methodNotAllowed, notFound } from "./http-errors.js";
import { createSchema } from "./schema.js";
import { walletHandlers } from "./wallet-handlers.js";

export interface WalletReceiverOptions {
  /** The webhook's signing key (several while one is rolled). */
  signingKey: string | readonly string[];
  /** Default 4000; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Where the platform delivers events (default `/webhook`). */
  webhookPath?: string;
  /** PostgreSQL server; without it an embedded PGlite in `dataDir` (in memory when that is unset too). */
  databaseUrl?: string;
  dataDir?: string;
  /** The wallet app's own fee per capture, in minor units (default 0). */
  ownFee?: number;
}

export interface WalletReceiver {
  /** Base URL of the admin API, e.g. http://127.0.0.1:4000 */
  url: string;
  /** The URL to register as the webhook. */
  webhookUrl: string;
  database: Database;
  stop(): Promise<void>;
}

/** The reference receiver as a small wallet app: webhook on `webhookPath`, admin API beside it. */
export async function startWalletReceiver(opts: WalletReceiverOptions): Promise<WalletReceiver> {
  const database = await openDatabase({ databaseUrl: opts.databaseUrl, dataDir: opts.dataDir });
  try {
    await createSchema(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  const webhookPath = opts.webhookPath ?? "/webhook";
  const receiver = createReceiver({
    signingKey: opts.signingKey,
    store: databaseDeliveryStore(database),
    handlers: walletHandlers({ ownFee: opts.ownFee }),
  });

  const app = express();
  app.disable("x-powered-by");
  app
    .route("/health")
    .get((_req, res) => void res.json({ status: "ok", database: database.kind }))
    .all(methodNotAllowed("GET, HEAD"));
  // Before any JSON parser: the signature covers the raw bytes.
  app.use(
    receiverRouter(receiver, webhookPath, {
      onError: (error) => console.error("wallet-receiver: delivery failed:", error),
    }),
  );
  // Matched as receiverRouter matches it, literally: WEBHOOK_PATH is not an express route pattern.
  app.use((req, res, next) => (req.path === webhookPath ? methodNotAllowed("POST")(req, res, next) : next()));
  app.use(adminRoutes(database));
  app.use(notFound);
  app.use(errorAnswer);

  const host = opts.host ?? "127.0.0.1";
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(opts.port ?? 4000, host, (error?: Error) => (error ? reject(error) : resolve(s)));
  }).catch(async (error: unknown) => {
    await database.close();
    throw error;
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  return {
    url,
    webhookUrl: url + webhookPath,
    database,
    async stop() {
      // Finishes the deliveries under way, then closes the database.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await closed;
      await database.close();
    },
  };
}
