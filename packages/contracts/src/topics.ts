/** Every Kafka topic, named once. Keys give per-resource ordering (ARCHITECTURE §4). */
export const TOPICS = {
  businesses: "businesses.v1",
  customers: "customers.v1",
  webhooks: "webhooks.v1",
  events: "events.v1",
  decisions: "decisions.v1",
  ledgerCommands: "ledger-commands.v1",
  ledgerResults: "ledger-results.v1",
  fees: "fees.v1",
  /** Messages a consumer group could never handle, set aside with where they came from and why (packages/bus). */
  deadLetters: "dead-letters.v1",
} as const;

export type Topic = (typeof TOPICS)[keyof typeof TOPICS];

export interface TopicSettings {
  /** Compacted topics keep the newest message per key (current configuration, tombstones on delete). */
  compacted?: boolean;
}

export const TOPIC_SETTINGS: Record<Topic, TopicSettings> = {
  "businesses.v1": {},
  "customers.v1": {},
  "webhooks.v1": { compacted: true },
  "events.v1": {},
  "decisions.v1": {},
  "ledger-commands.v1": {},
  "ledger-results.v1": {},
  // A fee never changes once made: the newest message per fee is all a new consumer needs.
  "fees.v1": { compacted: true },
  "dead-letters.v1": {},
};

export const ALL_TOPICS = Object.values(TOPICS) as Topic[];
