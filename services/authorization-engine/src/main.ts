import { z } from "zod";
import { runServiceProcess } from "@cardhold/platform";
import { answerAddress } from "./authorizations/answer-address";
import { MIN_TIMEOUT_MS } from "./network-interface/deadlines";
import { DEFAULT_RETENTION_HOURS } from "./network-interface/message-retention";
import { DEFAULT_TIMEOUT_MS } from "./network-interface/network-interface";
import { createService, NAME } from "./service";

await runServiceProcess({
  name: NAME,
  defaultPort: 8084,
  configShape: {
    CARD_DATA_KEY: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, "must be 64 hexadecimal characters (32 bytes): openssl rand -hex 32"),
    DECISION_SWEEPER_GRACE_MS: z.coerce.number().int().min(0).max(60_000).default(50),
    AUTHORIZATION_MAX_QUEUED_MS: z.coerce.number().int().min(1).max(60_000).default(2_000),
    AUTHORIZATION_MAX_IN_PROGRESS: z.coerce.number().int().min(1).max(10_000).default(128),
    /** Places one business may hold; unset: three quarters of AUTHORIZATION_MAX_IN_PROGRESS. */
    AUTHORIZATION_MAX_IN_PROGRESS_PER_BUSINESS: z.coerce.number().int().min(1).max(10_000).optional(),
    /** The fewest places while the engine's own transactions are slow; AUTHORIZATION_MAX_IN_PROGRESS: never fewer. */
    AUTHORIZATION_MIN_IN_PROGRESS: z.coerce.number().int().min(1).max(10_000).default(16),
    /** A request's first transaction slower than this (connection wait apart) shrinks the places by a tenth. */
    AUTHORIZATION_SLOW_TRANSACTION_MS: z.coerce.number().int().min(1).max(60_000).default(100),
    /** The ISO 8583 network interface's TCP port; unset: off. It binds HOST, as the HTTP server does. */
    ISO8583_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    ISO8583_TIMEOUT_MS: z.coerce.number().int().min(MIN_TIMEOUT_MS).max(60_000).default(DEFAULT_TIMEOUT_MS),
    /** How long an answer is kept for the message's repeats (network-interface/message-retention.ts). */
    ISO8583_RETENTION_HOURS: z.coerce.number().int().min(1).max(8_760).default(DEFAULT_RETENTION_HOURS),
    /**
     * This instance's internal address as the event dispatchers reach it: receivers' answers are posted straight back
     * to it. Unset: http://HOST:PORT when HOST is one address; none when HOST listens on every address (0.0.0.0, ::).
     * `off`: none. With none, answers travel on decisions.v1.
     */
    ENGINE_ANSWER_URL: z.union([z.literal("off"), z.url({ protocol: /^https?$/ })]).optional(),
    /**
     * A dispatcher's internal address (one instance or a balancer in front of several), as the gateway's setting:
     * authorizations' events are posted there and published on events.v1 only when that fails. `off`: Kafka only.
     */
    EVENT_DISPATCHER_URL: z.union([z.literal("off"), z.url({ protocol: /^https?$/ })]).default("http://127.0.0.1:8083"),
  },
  create: (deps, config) =>
    createService(deps, {
      cardDataKey: config.CARD_DATA_KEY,
      sweeperGraceMs: config.DECISION_SWEEPER_GRACE_MS,
      answerTo: answerAddress(config.ENGINE_ANSWER_URL, config.HOST, config.PORT),
      eventsTo: config.EVENT_DISPATCHER_URL === "off" ? undefined : config.EVENT_DISPATCHER_URL,
      admission: {
        maxQueuedMs: config.AUTHORIZATION_MAX_QUEUED_MS,
        maxInProgress: config.AUTHORIZATION_MAX_IN_PROGRESS,
        maxInProgressPerTenant: config.AUTHORIZATION_MAX_IN_PROGRESS_PER_BUSINESS,
        minInProgress: config.AUTHORIZATION_MIN_IN_PROGRESS,
        slowPlatformMs: config.AUTHORIZATION_SLOW_TRANSACTION_MS,
      },
      networkInterface:
        config.ISO8583_PORT === undefined
          ? undefined
          : {
              port: config.ISO8583_PORT,
              host: config.HOST,
              timeoutMs: config.ISO8583_TIMEOUT_MS,
              retentionHours: config.ISO8583_RETENTION_HOURS,
            },
    }),
});
