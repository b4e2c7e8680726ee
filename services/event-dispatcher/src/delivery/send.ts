import { EventEmitter } from "node:events";
import { Agent, request, type Dispatcher } from "undici";
import { signatureHeaders, standardWebhooksHeaders } from "../domain/signature";
import { connectsOnlyToPublicAddresses } from "../domain/target-policy";
import { createGuardedAgent, TargetNotAllowed } from "./target-guard";

export interface SendResult {
  httpStatus: number | null;
  latencyMs: number;
  /** Up to 64 KiB of the answer, as text. */
  body: string | null;
  retryAfter: string | undefined;
  error: "timeout" | "connection-error" | null;
  errorDetail: string | null;
}

const MAX_BODY = 65_536;

const AGENT_OPTIONS = { keepAliveTimeout: 10_000, connections: 256 } satisfies Agent.Options;
/** Test mode, or live mode with private targets allowed: any address. */
const anyAddress = new Agent(AGENT_OPTIONS);
/** Live mode: each new connection only to a public address, checked on the address connected to. */
const publicOnly = createGuardedAgent({}, AGENT_OPTIONS);

/** The connection pool a delivery in `mode` is sent through. */
export function dispatcherFor(mode: string, allowPrivateTargets: boolean): Dispatcher {
  return connectsOnlyToPublicAddresses(mode, allowPrivateTargets) ? publicOnly : anyAddress;
}

/**
 * A delivery's time limit as the request's abort signal. An EventEmitter (undici takes one as a signal), not an
 * AbortSignal: Node makes every AbortSignal with Object.setPrototypeOf, and V8 then keeps it and what it holds through
 * young-generation collections, three deliveries per authorization (bench/README.md, twenty-fourth session).
 */
class DeliveryTimeout extends EventEmitter {
  aborted = false;
  reason: Error | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(timeoutMs: number) {
    super();
    this.timer = setTimeout(() => {
      this.aborted = true;
      this.reason = Object.assign(new Error(`no answer within ${timeoutMs} ms`), { name: "TimeoutError" });
      this.emit("abort");
    }, timeoutMs);
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}

/** What a delivery is signed with. */
export interface DeliverySigning {
  signingKey: string;
  /** The key a roll replaced, while its grace lasts: Standard Webhooks signatures only (Service-Signature: the new key). */
  previousSigningKey?: string;
  /** Extra header names the Service-Signature value goes under too. */
  extraSignatureHeaders?: readonly string[];
}

/**
 * POSTs the exact envelope bytes, signed (Service-Signature, and the same value under each of the webhook's extra
 * signature header names; Standard Webhooks' webhook-id, webhook-timestamp and webhook-signature), through
 * `dispatcher` (see dispatcherFor), and reports what happened; never throws. Redirects are not followed: a 3xx is
 * the receiver's answer.
 */
export async function sendSigned(
  url: string,
  envelope: string,
  signing: DeliverySigning,
  eventId: string,
  timeoutMs: number,
  dispatcher: Dispatcher,
): Promise<SendResult> {
  const body = Buffer.from(envelope, "utf8");
  const { signingKey, previousSigningKey, extraSignatureHeaders = [] } = signing;
  const standardKeys = previousSigningKey === undefined ? [signingKey] : [signingKey, previousSigningKey];
  const sentAtSeconds = Math.floor(Date.now() / 1000);
  const started = performance.now();
  const signal = new DeliveryTimeout(timeoutMs);
  try {
    const response = await request(url, {
      method: "POST",
      dispatcher,
      signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      headers: {
        "content-type": "application/json",
        "user-agent": "Cardhold-Webhooks/0.1",
        "x-cardhold-event-id": eventId,
        ...signatureHeaders(body, signingKey, extraSignatureHeaders),
        ...standardWebhooksHeaders(body, standardKeys, eventId, sentAtSeconds),
      },
      body,
    });
    const text = await readCapped(response.body, MAX_BODY);
    const retryAfter = response.headers["retry-after"];
    return {
      httpStatus: response.statusCode,
      latencyMs: Math.round(performance.now() - started),
      body: text,
      retryAfter: typeof retryAfter === "string" ? retryAfter : undefined,
      error: null,
      errorDetail: null,
    };
  } catch (error) {
    if (error instanceof TargetNotAllowed) {
      const latencyMs = Math.round(performance.now() - started);
      return {
        httpStatus: null,
        latencyMs,
        body: null,
        retryAfter: undefined,
        error: "connection-error",
        errorDetail: error.message,
      };
    }
    const timedOut = signal.aborted || /timeout/i.test((error as Error).name + (error as Error).message);
    return {
      httpStatus: null,
      latencyMs: Math.round(performance.now() - started),
      body: null,
      retryAfter: undefined,
      error: timedOut ? "timeout" : "connection-error",
      errorDetail: timedOut ? `no answer within ${timeoutMs} ms` : (error as Error).message,
    };
  } finally {
    signal.clear();
  }
}

async function readCapped(stream: AsyncIterable<Buffer>, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    if (size < max) chunks.push(chunk.subarray(0, max - size));
    size += chunk.length;
  }
  return Buffer.concat(chunks).toString("utf8");
}
