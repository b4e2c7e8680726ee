import { decline, type AuthorizationAnswer, type CheckAnswer } from "./answers";
import { parseEvent, UnsupportedEvent, type Authorization, type CardholdEvent, type EventOf, type Transaction } from "./events";
import { verifySignature } from "./signature";
import type { DeliveryStore } from "./store";

type Maybe<T> = T | Promise<T>;

/** One function per kind of event; each can only return a valid answer. */
export interface Handlers {
  check(authorization: Authorization, event: EventOf<"card.authorization.request">): Maybe<CheckAnswer>;
  capture(authorization: Authorization, event: EventOf<"card.authorization.request">): Maybe<AuthorizationAnswer>;
  closed(authorization: Authorization, event: EventOf<"card.authorization.closed">): Maybe<AuthorizationAnswer>;
  update(authorization: Authorization, event: EventOf<"card.authorization.update">): Maybe<AuthorizationAnswer>;
  transaction?(transaction: Transaction, event: EventOf<"card.transaction.created">): Maybe<void>;
}

export interface ReceiverOptions {
  signingKey: string;
  handlers: Handlers;
  store: DeliveryStore;
}

export interface ReceiverResponse {
  status: number;
  body: unknown;
}

export interface Receiver {
  /** Verifies, parses, de-duplicates and answers one delivery. */
  handle(rawBody: Buffer | string, signature: string | undefined): Promise<ReceiverResponse>;
}

async function dispatch(event: CardholdEvent, handlers: Handlers, store: DeliveryStore): Promise<unknown> {
  switch (event.event) {
    case "card.authorization.request":
      if (event.data.type === "check") return handlers.check(event.data, event);
      if (!(await store.claimAuthorization(event.data.id))) return decline("duplicate-transaction");
      return handlers.capture(event.data, event);
    case "card.authorization.closed":
      return handlers.closed(event.data, event);
    case "card.authorization.update":
      return handlers.update(event.data, event);
    case "card.transaction.created":
      await handlers.transaction?.(event.data, event);
      return { code: "success" };
  }
}

/**
 * A webhook receiver: checks Service-Signature over the raw bytes (400 `Invalid Signature`), parses the event
 * (400 `Invalid Request` for anything else), answers a resent event with the answer it gave the first time, and
 * declines a second capture request for the same authorization with `duplicate-transaction`.
 */
export function createReceiver(opts: ReceiverOptions): Receiver {
  return {
    async handle(rawBody, signature) {
      if (!verifySignature(rawBody, signature, opts.signingKey)) return { status: 400, body: { error: "Invalid Signature" } };
      let event: CardholdEvent;
      try {
        event = parseEvent(JSON.parse(rawBody.toString()));
      } catch (error) {
        if (error instanceof SyntaxError || error instanceof UnsupportedEvent) return { status: 400, body: { error: "Invalid Request" } };
        throw error;
      }
      const eventId = event.metadata.event;
      const earlier = await opts.store.recall(eventId);
      if (earlier !== undefined) return { status: 200, body: earlier };
      const answer = await dispatch(event, opts.handlers, opts.store);
      await opts.store.remember(eventId, answer);
      return { status: 200, body: answer };
    },
  };
}
