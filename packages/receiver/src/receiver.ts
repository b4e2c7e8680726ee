import { decline, fitsRequest, validAnswer, type AuthorizationAnswer, type CheckAnswer } from "./answers.js";
import {
  parseEvent,
  UnsupportedEvent,
  type AmountUpdate,
  type Authorization,
  type CardholdEvent,
  type EventMode,
  type EventOf,
  type Reversal,
  type Transaction,
} from "./events.js";
import { verifySignature } from "./signature.js";
import {
  checkStandardWebhooks,
  standardWebhooksSettings,
  type StandardWebhooksHeaders,
  type StandardWebhooksOptions,
} from "./standard-webhooks.js";
import type { DeliverySession, DeliveryStore } from "./store.js";

type Maybe<T> = T | Promise<T>;

/** What every handler gets besides the resource: the whole event and the store's transaction handle. */
export interface HandlerContext<E, Tx> {
  event: E;
  tx: Tx;
}

type RequestContext<Tx> = HandlerContext<EventOf<"card.authorization.request">, Tx>;
type UpdateContext<Tx> = HandlerContext<EventOf<"card.authorization.update">, Tx>;

/** One function per kind of event (and per kind of update); each can only return a valid answer. */
export interface Handlers<Tx = undefined> {
  /** `card.authorization.request`, type `check`: approve with the balance and holder name, or decline. */
  check(authorization: Authorization, ctx: RequestContext<Tx>): Maybe<CheckAnswer>;
  /** `card.authorization.request`, type `capture`, for an authorization id not seen before: lock funds or decline. */
  capture(authorization: Authorization, ctx: RequestContext<Tx>): Maybe<AuthorizationAnswer>;
  /** `card.authorization.closed`: `approved` → debit the locked funds, `declined` → release them. */
  closed(
    authorization: Authorization,
    ctx: HandlerContext<EventOf<"card.authorization.closed">, Tx>,
  ): Maybe<AuthorizationAnswer>;
  /** `card.authorization.update` with status `pending`: the amount changed; answered once, within 4 seconds. */
  amountUpdate(authorization: AmountUpdate, ctx: UpdateContext<Tx>): Maybe<AuthorizationAnswer>;
  /** `card.authorization.update` with status `reversed`: the network reversed the purchase; give the funds back. */
  reversal(authorization: Reversal, ctx: UpdateContext<Tx>): Maybe<AuthorizationAnswer>;
  /** `card.transaction.created`; always answered `{"code": "success"}`. */
  transaction?(transaction: Transaction, ctx: HandlerContext<EventOf<"card.transaction.created">, Tx>): Maybe<void>;
}

/** A webhook's signing key, or several while it is being rolled (any of them verifies). */
export type SigningKeys = string | readonly string[];

/** A receiver URL that both modes' webhooks call (a business's two default webhooks do) knows each mode's key. */
export interface SigningKeysByMode {
  test?: SigningKeys;
  live?: SigningKeys;
}

export interface ReceiverOptions<Tx> {
  /**
   * The webhook's signing key; several while a key is being rolled (any of them verifies). For a receiver that both
   * modes' webhooks call, `{ test, live }`: an event then counts only when it verifies under the keys of the mode it
   * says (a test key cannot pass for live), and `event.mode`, when the sender left it out, is the mode whose key
   * verified it. Never put both modes' keys in one list: that is what lets a test event pass for a live one.
   */
  signingKey: SigningKeys | SigningKeysByMode;
  handlers: Handlers<Tx>;
  store: DeliveryStore<Tx>;
  /**
   * The Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature), signed with the same keys:
   * checked when a delivery has them (or always, `required`), with a timestamp tolerance (5 minutes by default) and
   * replays refused. Service-Signature is checked as before either way.
   */
  standardWebhooks?: StandardWebhooksOptions;
}

export interface ReceiverResponse {
  status: number;
  body: unknown;
}

export interface Receiver {
  /**
   * Verifies, parses, de-duplicates and answers one delivery: `signature` is the Service-Signature header,
   * `standardWebhooks` the Standard Webhooks headers. A handler's exception rejects (answer it 500).
   */
  handle(
    rawBody: Buffer | string,
    signature: string | undefined,
    standardWebhooks?: StandardWebhooksHeaders,
  ): Promise<ReceiverResponse>;
}

export const INVALID_SIGNATURE = { error: "Invalid Signature" } as const;
export const INVALID_REQUEST = { error: "Invalid Request" } as const;
/** webhook-timestamp is not a time in seconds within the tolerance of now. */
export const INVALID_TIMESTAMP = { error: "Invalid Timestamp" } as const;
/** The same signed delivery (webhook-id and webhook-timestamp) came before, within the tolerance. */
export const REPLAYED_REQUEST = { error: "Replayed Request" } as const;

/** When the platform made an event (its metadata.sentAt), to the millisecond. */
const madeAt = (event: CardholdEvent) => new Date(event.metadata.sentAt).toISOString();

async function dispatch<Tx>(
  event: CardholdEvent,
  handlers: Handlers<Tx>,
  session: DeliverySession<Tx>,
): Promise<unknown> {
  const tx = session.tx;
  switch (event.event) {
    case "card.authorization.request":
      if (event.data.type === "check")
        return fitsRequest(validAnswer(await handlers.check(event.data, { event, tx }), "check"), event.data);
      if (!(await session.claimAuthorization(event.data.id))) return decline("duplicate-transaction");
      return fitsRequest(validAnswer(await handlers.capture(event.data, { event, tx })), event.data);
    case "card.authorization.closed":
      // A closed capture whose request this receiver never handled (its answer was late, or never came) claims the
      // authorization, so that request, still on its way or waiting on a lock, is declined as a repeat instead of
      // locking funds no event will ever release. A request handled first has the claim: this waits for it.
      if (event.data.type === "capture") {
        await session.claimAuthorization(event.data.id);
        await session.recordClosed(event.data.id, madeAt(event));
      }
      return validAnswer(await handlers.closed(event.data, { event, tx }));
    case "card.authorization.update": {
      const update = event.data;
      if (update.status === "pending") {
        // An amount change the platform closed before this delivery (by its timeout default, this receiver having
        // answered too late) changes nothing: the closed event already said what the platform kept.
        if (await session.closedSince(update.id, madeAt(event))) return decline("duplicate-transaction");
        // An amount change is approved whole or declined: never for less.
        return fitsRequest(validAnswer(await handlers.amountUpdate({ ...update, status: "pending" }, { event, tx })), {
          amount: update.amount,
        });
      }
      return validAnswer(await handlers.reversal({ ...update, status: "reversed" }, { event, tx }));
    }
    case "card.transaction.created":
      await handlers.transaction?.(event.data, { event, tx });
      return { code: "success" };
    case "webhook.test":
      return { code: "success" };
  }
}

/**
 * A webhook receiver (the reference receiver's steps): checks Service-Signature over the raw bytes (400
 * `Invalid Signature`) and the Standard Webhooks headers when there are any (see ReceiverOptions.standardWebhooks),
 * parses the event (400 `Invalid Request` for a body that is not one of the supported events), answers a resent
 * event id with the answer it gave the first time, and declines a second capture request for one authorization with
 * `duplicate-transaction`. Each delivery runs in one store transaction.
 *
 * A replay is the same signed delivery again: the same webhook-id with the same webhook-timestamp. The platform's own
 * retries keep the webhook-id (the event id) but are signed at their own send time, so they are not replays: they get
 * the answer remembered for the event, as a resend does.
 */
export function createReceiver<Tx>(opts: ReceiverOptions<Tx>): Receiver {
  const { keys, byMode } = keyring(opts.signingKey);
  const standard = standardWebhooksSettings(opts.standardWebhooks);
  return {
    async handle(rawBody, signature, standardHeaders = {}) {
      const verifiedBy = keys.filter((k) => verifySignature(rawBody, signature, k.key));
      if (verifiedBy.length === 0) return { status: 400, body: INVALID_SIGNATURE };
      const checked = checkStandardWebhooks(
        rawBody,
        standardHeaders,
        verifiedBy.map((k) => k.key),
        standard,
      );
      if (checked.outcome === "invalid-signature") return { status: 400, body: INVALID_SIGNATURE };
      if (checked.outcome === "invalid-timestamp") return { status: 400, body: INVALID_TIMESTAMP };
      let event: CardholdEvent;
      try {
        event = parseEvent(JSON.parse(rawBody.toString()));
      } catch (error) {
        if (error instanceof SyntaxError || error instanceof UnsupportedEvent)
          return { status: 400, body: INVALID_REQUEST };
        throw error;
      }
      if (byMode) {
        const modes = new Set(verifiedBy.map((k) => k.mode));
        if (event.mode && !modes.has(event.mode)) return { status: 400, body: INVALID_SIGNATURE };
        const [only] = modes;
        if (!event.mode && modes.size === 1 && only) event = { ...event, mode: only };
      }
      if (checked.outcome === "verified") {
        const keepUntil = (checked.timestamp + standard.toleranceSeconds) * 1000 + 1;
        const first = await standard.replayStore.claim(`${checked.id} ${checked.timestamp}`, keepUntil);
        if (!first) return { status: 400, body: REPLAYED_REQUEST };
      }
      const eventId = event.metadata.event;
      return opts.store.transaction(async (session) => {
        const claim = await session.claimEvent(eventId);
        if (!claim.first) return { status: 200, body: claim.answer };
        const answer = await dispatch(event, opts.handlers, session);
        await session.remember(eventId, answer);
        return { status: 200, body: answer };
      });
    },
  };
}

interface RingKey {
  key: string;
  /** The mode the key signs for, when the receiver was given keys by mode. */
  mode?: EventMode;
}

const USAGE =
  "createReceiver needs signingKey: the webhook's signing key (a non-empty string, or several), or { test, live } with each mode's";

function keyList(keys: unknown, mode?: EventMode): RingKey[] {
  const list: unknown[] = Array.isArray(keys) ? [...(keys as unknown[])] : [keys];
  if (list.length === 0 || list.some((k) => typeof k !== "string" || !k)) throw new TypeError(USAGE);
  return list.map((key) => ({ key: key as string, mode }));
}

/** Every key the receiver accepts, with its mode when given by mode; a wrong shape throws TypeError at once. */
function keyring(option: unknown): { keys: RingKey[]; byMode: boolean } {
  if (typeof option !== "object" || option === null || Array.isArray(option))
    return { keys: keyList(option), byMode: false };
  const entries = Object.entries(option).filter(([, keys]) => keys !== undefined);
  if (entries.length === 0 || entries.some(([mode]) => mode !== "test" && mode !== "live")) throw new TypeError(USAGE);
  return { keys: entries.flatMap(([mode, keys]) => keyList(keys, mode as EventMode)), byMode: true };
}
