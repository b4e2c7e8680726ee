import type { ConsumerLagReading } from "./consumer-lag";

/** A message to publish; `id` is set by the outbox (or generated) and travels in the `message-id` header. */
export interface OutgoingMessage {
  topic: string;
  key: string;
  value: unknown;
  id?: string;
  headers?: Record<string, string>;
  /**
   * No message of this key was ever committed before this one (the first of a new resource): an outbox relay's
   * direct lane may take it whatever it knows of the key (see splitForLane).
   */
  opensKey?: boolean;
}

export interface IncomingMessage {
  id: string;
  topic: string;
  key: string;
  value: unknown;
  headers: Record<string, string>;
  partition: number;
  offset: string;
}

export type MessageHandler = (message: IncomingMessage) => Promise<void>;
/** Handles consecutive messages of one partition at once (e.g. in one database transaction). */
export type BatchHandler = (messages: IncomingMessage[]) => Promise<void>;

export type Subscription = {
  /** Consumer group: every group receives each message; within a group one consumer handles it. */
  group: string;
  topics: string[];
} & ({ handler: MessageHandler; batchHandler?: never } | { batchHandler: BatchHandler; handler?: never });

/** Most messages handed to one batchHandler call. */
export const MAX_BATCH = 200;

/**
 * The seam between services. Guarantees of both implementations: per-key order, consumer groups, at-least-once
 * (a handler that throws gets the same message again, and later messages of that partition wait).
 */
export interface Bus {
  /**
   * Other processes publish and consume through the same broker (Kafka): other instances of a service may then write
   * its outbox too. False for the in-process bus of the all-in-one, whose data directory admits one process.
   */
  readonly crossProcess: boolean;
  /** Connects and creates the topics. */
  start(): Promise<void>;
  publish(messages: OutgoingMessage[]): Promise<void>;
  /**
   * Registers a consumer group's handler. Resolves once the group is registered, not joined: with Kafka the join
   * (seconds after a crash, while the dead member's session runs out) goes on in the background.
   */
  subscribe(subscription: Subscription): Promise<void>;
  ready(): Promise<boolean>;
  /** What each group subscribed through this bus has yet to handle, per topic; cheap (no I/O), for a scrape. */
  consumerLag(): ConsumerLagReading;
  /** Stops consuming after in-flight handlers finish, then disconnects. */
  stop(): Promise<void>;
}

export const MESSAGE_ID_HEADER = "message-id";
