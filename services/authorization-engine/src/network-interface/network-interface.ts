/**
 * The ISO 8583 card-network interface (README.md beside this file): a module of the authorization engine, on its own
 * TCP port, answering each network message from the process that holds the authorization and its deadline
 * (ARCHITECTURE §5, "The card-network interface").
 */
import type { AddressInfo } from "node:net";
import { Counter, Histogram, type Registry } from "prom-client";
import { answerMessage } from "./answer-message";
import { backfillPanHashes } from "./card-by-pan";
import { MIN_TIMEOUT_MS } from "./deadlines";
import { listen, type Listener } from "./listener";
import { createMessageRetention, DEFAULT_RETENTION_HOURS } from "./message-retention";
import type { MessageContext } from "./message-context";

export interface NetworkInterfaceOptions {
  /** ISO8583_PORT; 0 picks a free one (tests). */
  port: number;
  /** The HTTP server's bind address (HOST). */
  host?: string;
  /** ISO8583_TIMEOUT_MS: how long the network waits for an answer in all (default 4000). */
  timeoutMs?: number;
  /** ISO8583_RETENTION_HOURS: how long an answer is kept for the message's repeats (default a week). */
  retentionHours?: number;
}

export const DEFAULT_TIMEOUT_MS = 4_000;

export interface NetworkInterface {
  start(): Promise<void>;
  /** Where it listens, once started. */
  address(): AddressInfo | undefined;
  stop(): Promise<void>;
}

function messageMetrics(registry: Registry) {
  const answered = new Counter({
    name: "iso8583_messages_total",
    help: "ISO 8583 network messages answered, by answer MTI and response code (field 39)",
    labelNames: ["mti", "code"],
    registers: [registry],
  });
  const seconds = new Histogram({
    name: "iso8583_answer_seconds",
    help: "From an ISO 8583 message's arrival to its answer being written",
    labelNames: ["mti"],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 4],
    registers: [registry],
  });
  return (mti: string, code: string, ms: number) => {
    answered.inc({ mti, code });
    seconds.observe({ mti }, ms / 1000);
  };
}

export function createNetworkInterface(
  ctx: Omit<MessageContext, "timeoutMs">,
  registry: Registry,
  opts: NetworkInterfaceOptions,
): NetworkInterface {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (timeoutMs < MIN_TIMEOUT_MS) throw new Error(`ISO8583_TIMEOUT_MS must be at least ${MIN_TIMEOUT_MS}`);
  const context: MessageContext = { ...ctx, timeoutMs };
  const onAnswered = messageMetrics(registry);
  const retention = createMessageRetention(ctx.db, ctx.logger, opts.retentionHours ?? DEFAULT_RETENTION_HOURS);
  let listener: Listener | undefined;
  return {
    async start() {
      retention.start();
      const hashed = await backfillPanHashes(context);
      if (hashed > 0) ctx.logger.info({ cards: hashed }, "PAN hashes filled in for the network interface");
      listener = await listen({
        host: opts.host ?? "127.0.0.1",
        port: opts.port,
        logger: ctx.logger.child({ component: "iso8583" }),
        answer: (message, receivedAt) => answerMessage(context, message, receivedAt),
        onAnswered,
      });
      const { address, port } = listener.address();
      ctx.logger.info({ host: address, port }, "ISO 8583 network interface listening");
    },
    address: () => listener?.address(),
    async stop() {
      await listener?.close(timeoutMs);
      listener = undefined;
      await retention.stop();
    },
  };
}
