/** The public API's records as the console shows them (docs: GET /openapi.json). */

export type Mode = "test" | "live";
export type Permission = "read" | "write" | "card-secrets" | "webhook-secrets";

export interface Session {
  business: { id: string; name: string };
  mode: Mode;
  keyId: string;
  /** null: full access. */
  permissions: Permission[] | null;
  csrfToken: string;
  expiresAt: string;
}

export interface Page<T> {
  data: T[];
  metadata: { hasMore: boolean; totalCount?: number };
}

export interface Authorization {
  id: string;
  card: string;
  customer: string;
  account: string;
  type: "check" | "capture";
  status: "pending" | "approved" | "declined" | "reversed";
  amount: number;
  requestedAmount?: number;
  fees: number;
  currency: string;
  channel: string;
  mcc?: string;
  merchant?: string;
  decisionType?: string;
  standInRule?: string;
  statusReason?: string;
  declineReason?: string;
  reserved: boolean;
  cardBalance?: number;
  cardHolderName?: string;
  networkData: Record<string, string | undefined>;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export interface Transaction {
  id: string;
  authorization: string;
  card: string;
  type: string;
  amount: number;
  fees: number;
  currency: string;
  createdAt: string;
}

export interface Attempt {
  attempt: number;
  trigger: "initial" | "scheduled" | "manual";
  at?: string;
  url: string;
  httpStatus: number | null;
  latencyMs: number | null;
  response: string | null;
  error: string | null;
}

export interface Delivery {
  webhook: string;
  status: "pending" | "delivering" | "delivered" | "failed";
  nextAttemptAt: string | null;
  attempts: Attempt[];
}

export interface EventRecord {
  id: string;
  event: string;
  resource: string;
  status: "pending" | "delivered" | "failed";
  data: unknown;
  createdAt: string;
}

export interface EventDetail extends EventRecord {
  deliveries: Delivery[];
  payload: unknown;
}

export interface Customer {
  id: string;
  name: string;
  reference: string;
  type: "individual" | "business";
  status: string;
  verifications: { type: string; status: string }[];
  metadata: Record<string, unknown>;
  createdAt: string;
}

export const CHANNELS = ["atm", "pos", "online", "in-app"] as const;
export type Channel = (typeof CHANNELS)[number];

export interface CardControls {
  allowedChannels?: Channel[];
  blockedChannels?: Channel[];
  blockedCategories?: string[];
  spendingLimits?: ({ amount: number; interval: string } | null)[];
  [control: string]: unknown;
}

export interface Card {
  id: string;
  type: "virtual" | "physical";
  network: string;
  status: "inactive" | "active" | "blocked" | "terminated";
  currency: string;
  customer: string;
  program: string;
  reference: string;
  fundingSource: string;
  details: { last4: string; expiry: string; cardHolderName: string };
  controls: CardControls;
  createdAt: string;
}

export interface CardSecrets {
  cardHolderName: string;
  last4: string;
  pan: string;
  expiry: string;
  cvv: string;
}

export interface Account {
  id: string;
  name: string;
  type: string;
  currency: string;
  status: string;
  customer?: string;
  isDefault: boolean;
  createdAt: string;
}

export interface Balance {
  account: string;
  currency: string;
  available: number;
  ledger: number;
  held: number;
}

export interface LedgerEntry {
  id: string;
  account: string;
  type: "debit" | "credit";
  kind: string;
  amount: number;
  balanceAfter?: number;
  currency: string;
  reference: string;
  description: string;
  createdAt: string;
}

export interface Webhook {
  id: string;
  name: string;
  description: string | null;
  url: string;
  events: string[];
  status: "created" | "enabled" | "disabled";
  isDefault: boolean;
  timeoutDefault: "approve" | "decline" | null;
  createdAt: string;
}

export interface ApiKey {
  id: string;
  name: string | null;
  prefix: string;
  last4?: string;
  mode: Mode;
  permissions: Permission[] | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface RequestLog {
  id: string;
  method: string;
  path: string;
  status: number;
  duration: number;
  apiKey: string | null;
  requestId: string;
  requestBody: unknown;
  responseBody: unknown;
  createdAt: string;
}

export interface AuthorizationBucket {
  start: string;
  count: number;
  approved: number;
  declined: number;
  declinedByReason: Record<string, number>;
  decisionLatencyP50Ms: number | null;
  decisionLatencyP99Ms: number | null;
}

export interface AuthorizationStats {
  window: "hour" | "day";
  bucketSeconds: number;
  buckets: AuthorizationBucket[];
  totals: Omit<AuthorizationBucket, "start">;
}

export interface DeliveryStats {
  window: "hour" | "day";
  bucketSeconds: number;
  buckets: { start: string; attempts: number; failed: number }[];
  totals: { attempts: number; failed: number; failureRate: number | null };
}
