import { randomBytes } from "node:crypto";
import { z } from "zod";
import { enqueue, type OutboxRelay } from "@cardhold/bus";
import { TOPICS, type BusinessCreatedMessage, type Mode } from "@cardhold/contracts";
import type { Db } from "@cardhold/db";
import { newId, notFound, validate } from "@cardhold/platform";
import { generateApiKey, hashApiKey, parseApiKey } from "./domain/api-key";
import { businessExists, findActiveKey, insertApiKey, insertBusiness, SCHEMA, type ApiKeyRow } from "./store/businesses.store";

export const createBusinessSchema = z.object({
  name: z.string().trim().min(1).max(200),
  webhookUrl: z.url({ protocol: /^https?$/, error: "must be an http or https URL" }),
  signingKey: z.string().min(16, "must be at least 16 characters").max(256).optional(),
});
export type CreateBusinessInput = z.infer<typeof createBusinessSchema>;

export const createKeySchema = z.object({ mode: z.enum(["test", "live"]) });

export interface CreatedBusiness {
  business: { id: string; object: "business"; name: string; defaultWebhook: { url: string }; createdAt: string };
  /** Shown once; only its hash is stored. */
  testKey: string;
}

export interface Caller {
  keyId: string;
  businessId: string;
  mode: Mode;
}

const CACHE_MS = 60_000;

export function businessUseCases(db: Db, relay: Pick<OutboxRelay, "wake">) {
  const keyCache = new Map<string, { caller: Caller | undefined; until: number }>();

  const issueKey = async (q: Pick<Db, "query">, businessId: string, mode: Mode) => {
    const key = generateApiKey(mode);
    const id = newId("apiKey");
    await insertApiKey(q, { id, businessId, mode, hash: hashApiKey(key), last4: key.slice(-4) });
    return { id, key };
  };

  return {
    /**
     * A business with its default webhooks (announced on businesses.v1) and a first test key. The given or generated
     * signing key is the test default's; the webhook-registry gives the live default a key of its own.
     */
    async createBusiness(body: unknown): Promise<CreatedBusiness> {
      const input = validate(createBusinessSchema, body);
      const id = newId("business");
      const createdAt = new Date();
      const signingKey = input.signingKey ?? randomBytes(32).toString("hex");
      const testKey = await db.tx(async (tx) => {
        await insertBusiness(tx, { id, name: input.name, webhookUrl: input.webhookUrl, createdAt });
        const message: BusinessCreatedMessage = {
          type: "business.created",
          businessId: id,
          mode: "live",
          occurredAt: createdAt.toISOString(),
          data: { id, name: input.name, defaultWebhook: { url: input.webhookUrl, signingKey }, createdAt: createdAt.toISOString() },
        };
        await enqueue(tx, SCHEMA, [{ topic: TOPICS.businesses, key: id, value: message }]);
        return (await issueKey(tx, id, "test")).key;
      });
      relay.wake();
      return {
        business: { id, object: "business", name: input.name, defaultWebhook: { url: input.webhookUrl }, createdAt: createdAt.toISOString() },
        testKey,
      };
    },

    async createKey(businessId: string, body: unknown) {
      const { mode } = validate(createKeySchema, body);
      if (!(await businessExists(db, businessId))) throw notFound("Business", businessId);
      const { id, key } = await issueKey(db, businessId, mode);
      return { id, object: "apiKey", mode, key };
    },

    /** The business and mode of a secret key, or undefined; answers are cached briefly to spare the database. */
    async authenticate(key: string): Promise<Caller | undefined> {
      if (!parseApiKey(key)) return undefined;
      const hash = hashApiKey(key);
      const cached = keyCache.get(hash);
      if (cached && cached.until > Date.now()) return cached.caller;
      const row: ApiKeyRow | undefined = await findActiveKey(db, hash);
      const caller = row && { keyId: row.id, businessId: row.business_id, mode: row.mode };
      if (keyCache.size > 10_000) keyCache.clear();
      keyCache.set(hash, { caller, until: Date.now() + CACHE_MS });
      return caller;
    },
  };
}

export type BusinessUseCases = ReturnType<typeof businessUseCases>;
