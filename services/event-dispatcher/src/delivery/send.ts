import { Agent, request } from "undici";
import { SIGNATURE_HEADER, sign } from "../domain/signature";

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

const agent = new Agent({ keepAliveTimeout: 10_000, connections: 128 });

/** POSTs the exact envelope bytes, signed, and reports what happened; never throws. */
export async function sendSigned(url: string, envelope: string, signingKey: string, eventId: string, timeoutMs: number): Promise<SendResult> {
  const body = Buffer.from(envelope, "utf8");
  const started = performance.now();
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await request(url, {
      method: "POST",
      dispatcher: agent,
      signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      headers: {
        "content-type": "application/json",
        "user-agent": "Cardhold-Webhooks/0.1",
        "x-cardhold-event-id": eventId,
        [SIGNATURE_HEADER]: sign(body, signingKey),
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
    const timedOut = signal.aborted || /timeout/i.test((error as Error).name + (error as Error).message);
    return {
      httpStatus: null,
      latencyMs: Math.round(performance.now() - started),
      body: null,
      retryAfter: undefined,
      error: timedOut ? "timeout" : "connection-error",
      errorDetail: timedOut ? `no answer within ${timeoutMs} ms` : (error as Error).message,
    };
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
