import { createHmac, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import pg from "pg";

/** Signed deliveries as the platform sends them, built from the shared fixtures or from synthetic events. */
export const SIGNING_KEY = "wallet-receiver-test-signing-key";
const FIXTURES = new URL("../../../../test/fixtures/", import.meta.url);

export const sign = (body: string, key = SIGNING_KEY) => createHmac("sha512", key).update(body).digest("hex");
export const fixture = (name: string): string => readFileSync(new URL(name, FIXTURES), "utf8");
export const uniqueId = (prefix: string) => `${prefix}${randomBytes(9).toString("base64url").replace(/[-_]/g, "x")}`;

export interface AuthorizationFields {
  id?: string;
  card: string;
  type?: "check" | "capture";
  status?: "pending" | "approved" | "declined" | "reversed";
  amount?: number;
  fees?: number;
}

export function authorization(fields: AuthorizationFields) {
  return {
    id: fields.id ?? uniqueId("c.auth."),
    object: "card.authorization",
    card: fields.card,
    type: fields.type ?? "capture",
    status: fields.status ?? "pending",
    amount: fields.amount ?? 0,
    fees: fields.fees ?? 0,
    currency: "NGN",
    channel: "online",
    decisionType: "direct-response",
    createdAt: new Date().toISOString(),
    networkData: { network: "verve", cardAcceptorNameLocation: "TEST SHOP LAGOS" },
  };
}

/** `sentAt` is when the platform made the event (now unless given). */
export function envelope(event: string, data: object, eventId = uniqueId("evt."), sentAt = new Date()): string {
  return JSON.stringify({ event, data, metadata: { sentAt: sentAt.toISOString(), event: eventId } });
}

export const request = (fields: AuthorizationFields, eventId?: string, sentAt?: Date) =>
  envelope("card.authorization.request", authorization(fields), eventId, sentAt);
export const closed = (fields: AuthorizationFields, eventId?: string, sentAt?: Date) =>
  envelope("card.authorization.closed", authorization(fields), eventId, sentAt);
export const update = (fields: AuthorizationFields, eventId?: string, sentAt?: Date) =>
  envelope("card.authorization.update", authorization(fields), eventId, sentAt);

/** What a receiver answers: an authorization answer, `{code}` or `{error}`. */
export interface DeliveryAnswer {
  action?: "approve" | "decline";
  code?: string;
  cardBalance?: number;
  cardHolderName?: string;
  error?: string;
}

export async function deliver(
  webhookUrl: string,
  body: string,
  signature = sign(body),
  headers: Record<string, string> = {},
): Promise<{ status: number; body: DeliveryAnswer }> {
  const res = await fetch(webhookUrl, {
    method: "POST",
    headers: { "content-type": "application/json", "service-signature": signature, ...headers },
    body,
  });
  return { status: res.status, body: (await res.json()) as DeliveryAnswer };
}

export interface WalletBody {
  id: string;
  available: number;
  locked: number;
  debited: number;
  cards: string[];
}

/** The admin API of a running wallet receiver. */
export function admin(baseUrl: string) {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(baseUrl + path, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { data?: unknown[]; [field: string]: unknown } };
  };
  return {
    call,
    async createWallet(body: {
      holderName?: string;
      available: number;
      cards: string[];
      active?: boolean;
      captureLimit?: number;
    }) {
      const res = await call("POST", "/wallets", { holderName: "Ada Obi", ...body });
      if (res.status !== 201) throw new Error(`POST /wallets answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body as unknown as WalletBody;
    },
    wallet: async (id: string) => (await call("GET", `/wallets/${id}`)).body as unknown as WalletBody,
    liens: async (authorizationId: string) => (await call("GET", `/liens?authorization=${authorizationId}`)).body.data,
  };
}

/** A fresh database on the PostgreSQL server of DATABASE_URL, dropped afterwards. */
export async function scratchDatabase(serverUrl: string) {
  const name = `wallet_receiver_test_${randomBytes(6).toString("hex")}`;
  const run = async (text: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
