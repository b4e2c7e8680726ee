import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Logger } from "pino";
import { enqueue, type OutboxRelay } from "@cardhold/bus";
import { TOPICS, type BusinessCreatedMessage } from "@cardhold/contracts";
import type { Db } from "@cardhold/db";
import { announcedSigningKeySealer, newId, validate } from "@cardhold/platform";
import { apiKeyUseCases } from "./api-keys";
import { insertBusiness, SCHEMA } from "./store/businesses.store";

export { createKeySchema, updateKeySchema, type Caller } from "./api-keys";

export const createBusinessSchema = z.object({
  name: z.string().trim().min(1).max(200),
  webhookUrl: z.url({ protocol: /^https?$/, error: "must be an http or https URL" }),
  signingKey: z.string().min(16, "must be at least 16 characters").max(256).optional(),
});
export type CreateBusinessInput = z.infer<typeof createBusinessSchema>;

export interface CreatedBusiness {
  business: { id: string; object: "business"; name: string; defaultWebhook: { url: string }; createdAt: string };
  /** Shown once; only its hash is stored. */
  testKey: string;
}

export function businessUseCases(db: Db, relay: Pick<OutboxRelay, "wake">, secretsKey: string, logger?: Logger) {
  const keys = apiKeyUseCases(db, logger);
  const announced = announcedSigningKeySealer(secretsKey);

  return {
    /**
     * A business with its default webhooks (announced on businesses.v1) and a first test key (full access). The given
     * or generated signing key is the test default's; the webhook-registry gives the live default a key of its own.
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
          data: {
            id,
            name: input.name,
            defaultWebhook: { url: input.webhookUrl, sealedSigningKey: announced.seal(id, signingKey) },
            createdAt: createdAt.toISOString(),
          },
        };
        await enqueue(tx, SCHEMA, [{ topic: TOPICS.businesses, key: id, value: message }]);
        return (await keys.issueKey(tx, id, { mode: "test" })).key;
      });
      relay.wake();
      return {
        business: {
          id,
          object: "business",
          name: input.name,
          defaultWebhook: { url: input.webhookUrl },
          createdAt: createdAt.toISOString(),
        },
        testKey,
      };
    },

    createKey: keys.createKey,
    issueKey: keys.issueKey,
    listKeys: keys.listKeys,
    revokeKey: keys.revokeKey,
    updateKey: keys.updateKey,
    authenticate: keys.authenticate,
    recordKeyUse: keys.recordUse,
  };
}

export type BusinessUseCases = ReturnType<typeof businessUseCases>;
