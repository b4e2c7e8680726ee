import { z } from "zod";

const networkData = z
  .object({
    cardAcceptorNameLocation: z.string(),
    cardAccountNumber: z.string(),
    network: z.string(),
    reference: z.string(),
    rrn: z.string(),
    stan: z.string(),
    txnReference: z.string(),
    terminalId: z.string(),
  })
  .partial()
  .loose();

export const authorizationSchema = z
  .object({
    id: z.string().startsWith("c.auth."),
    object: z.literal("card.authorization"),
    card: z.string(),
    type: z.enum(["check", "capture"]),
    status: z.enum(["pending", "approved", "declined", "reversed"]),
    amount: z.number().int(),
    /** A capture's: what the network asked for (above amount after a partial approval). */
    requestedAmount: z.number().int().optional(),
    /** A capture request's: an approve may name a smaller amount (approve({ amount })). */
    partialApprovalAllowed: z.boolean().optional(),
    fees: z.number().int().optional(),
    currency: z.string(),
    channel: z.string().optional(),
    /** direct-response (your answer), system-response (the platform's own), stand-in (stand-in rules). */
    decisionType: z.string().optional(),
    /** The stand-in rule that decided (decisionType stand-in): you did not answer in time, or not usably. */
    standInRule: z.string().optional(),
    /** Whose stand-in rules decided (with standInRule): "program" (the card program's) or "webhook" (the webhook's). */
    standInSource: z.string().optional(),
    reserved: z.boolean().optional(),
    declineReason: z.string().optional(),
    createdAt: z.string(),
    networkData: networkData.optional(),
  })
  .loose();
export type Authorization = z.infer<typeof authorizationSchema>;

/** `card.authorization.update` carries an amount change (`pending`) or a network reversal (`reversed`), nothing else. */
export const authorizationUpdateSchema = authorizationSchema.extend({ status: z.enum(["pending", "reversed"]) });
export type AuthorizationUpdate = z.infer<typeof authorizationUpdateSchema>;
export type AmountUpdate = AuthorizationUpdate & { status: "pending" };
export type Reversal = AuthorizationUpdate & { status: "reversed" };

export const transactionSchema = z
  .object({
    id: z.string().startsWith("c.txn."),
    object: z.literal("card.transaction"),
    authorization: z.string(),
    card: z.string(),
    customer: z.string(),
    type: z.string(),
    currency: z.string(),
    amount: z.number().int(),
    fees: z.number().int(),
    createdAt: z.string(),
    networkData: networkData.optional(),
  })
  .loose();
export type Transaction = z.infer<typeof transactionSchema>;

/** A test event (POST /webhooks/:id/test): nothing to do but answer 200, which the receiver does. */
export const webhookTestSchema = z.object({ webhookId: z.string(), message: z.string() }).loose();
export type WebhookTest = z.infer<typeof webhookTestSchema>;

const timestamp = z.string().refine((s) => !Number.isNaN(Date.parse(s)), "not a timestamp");
const metadata = z.object({ sentAt: timestamp, event: z.string().startsWith("evt.") }).loose();

/** Which of the business's modes an event belongs to: its test mode (simulations, test keys) or live. */
export const eventModeSchema = z.enum(["test", "live"]);
export type EventMode = z.infer<typeof eventModeSchema>;

/** `mode` is absent from events sent before the platform added it; any other value is refused. */
const envelope = <K extends string, D extends z.ZodType>(kind: K, data: D) =>
  z.object({ event: z.literal(kind), data, metadata, mode: eventModeSchema.optional() });

export const eventSchema = z.discriminatedUnion("event", [
  envelope("card.authorization.request", authorizationSchema),
  envelope("card.authorization.closed", authorizationSchema),
  envelope("card.authorization.update", authorizationUpdateSchema),
  envelope("card.transaction.created", transactionSchema),
  envelope("webhook.test", webhookTestSchema),
]);
export type CardholdEvent = z.infer<typeof eventSchema>;
export type EventOf<K extends CardholdEvent["event"]> = Extract<CardholdEvent, { event: K }>;

export class UnsupportedEvent extends Error {
  override name = "UnsupportedEvent";
}

/** Parses an event body; an unknown kind or a malformed body throws UnsupportedEvent. */
export function parseEvent(body: unknown): CardholdEvent {
  const result = eventSchema.safeParse(body);
  if (!result.success)
    throw new UnsupportedEvent(
      result.error.issues.map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`).join("; "),
    );
  return result.data;
}
