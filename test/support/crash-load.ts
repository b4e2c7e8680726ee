/**
 * Mixed API load for crash tests: captures through the simulation endpoints, amount updates and reversals of
 * captures approved earlier, checks and bill payments, from a fixed number of concurrent workers. A request cut off
 * by a killed server (connection reset or refused) is counted, not thrown.
 */
import { Agent, request, type Dispatcher } from "undici";

export interface Reply {
  status: number;
  body: any;
}

/** A header naming each request of a load, so a balancer in front of the platform can tell which it saw. */
export const LOAD_TAG_HEADER = "x-load-tag";

/** A request that ended without an answer because its connection failed (reset, refused, closed). */
export class CutOff extends Error {
  constructor(override readonly cause: Error & { code?: string }) {
    super([cause.code, cause.message].filter(Boolean).join(" "));
    this.name = "CutOff";
  }
}

/**
 * The load's connections: an idle one is kept 10 minutes, so those a burst opened are still there for the next
 * burst. A new connection costs a Node server an event-loop turn to accept (one per listener per turn), which a
 * busy machine stretches to seconds; a card network's links stay open likewise.
 */
export const loadConnections = () => new Agent({ keepAliveTimeout: 600_000, keepAliveMaxTimeout: 600_000 });

const sharedConnections = loadConnections();

/**
 * JSON over HTTP with a Bearer key; throws CutOff on a network error, and a TimeoutError when `timeoutMs` passes.
 * `tag` goes out as LOAD_TAG_HEADER.
 */
export function httpJson(
  baseUrl: () => string,
  key: () => string,
  timeoutMs = 30_000,
  dispatcher: Dispatcher = sharedConnections,
) {
  return async (method: string, path: string, body?: unknown, tag?: string): Promise<Reply> => {
    const signal = AbortSignal.timeout(timeoutMs);
    let text: string;
    let status: number;
    try {
      const res = await request(baseUrl() + path, {
        method: method as Dispatcher.HttpMethod,
        headers: {
          authorization: `Bearer ${key()}`,
          "content-type": "application/json",
          ...(tag && { [LOAD_TAG_HEADER]: tag }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
        dispatcher,
      });
      status = res.statusCode;
      text = await res.body.text();
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw new CutOff(error as Error);
    }
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = text;
    }
    return { status, body: json };
  };
}

/**
 * Opens about `count` connections to `baseUrl` before a load starts (concurrent GET /health, each holding one), so
 * the load's bursts find them open instead of waiting for new ones to be accepted.
 */
export async function openConnections(dispatcher: Dispatcher, baseUrl: string, count: number): Promise<void> {
  await Promise.all(
    Array.from({ length: count }, async () => {
      const res = await request(`${baseUrl}/health`, { dispatcher, signal: AbortSignal.timeout(30_000) });
      await res.body.text();
    }),
  );
}

/** A small seeded generator (mulberry32), so a failing run can be repeated with its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export interface LoadStats {
  sent: number;
  /** Answered with any HTTP status. */
  answered: number;
  /** Connection reset or refused: cut off by the kill. */
  cutOff: number;
  /** No answer within the request timeout (a hang, not a kill). */
  timedOut: number;
  /** `op status outcome` → count, e.g. `capture 200 approved`. */
  outcomes: Record<string, number>;
  /** 5xx answers (load shedding's 503 platform-overloaded apart) and unexpected errors, with their bodies. */
  errors: string[];
  /** The requests cut off, with how long they had been waiting: `capture 1830ms`. */
  cut: string[];
  /** Every answer that was not a 2xx or 4xx, or came later than `LATE_ANSWER_MS`, and every request with no answer. */
  incidents: Incident[];
}

/** A card network's 4-second window plus the 250 ms the platform is allowed beyond it. */
export const LATE_ANSWER_MS = 4_250;

export interface Incident {
  /** When the request was sent (ms since the epoch). */
  sentAt: number;
  op: string;
  /** The HTTP status, or how the request ended without one. */
  outcome: number | "cut-off" | "timed-out" | "error";
  /** The error body's `code`, when there is one (`platform-overloaded`, `service-unavailable` …). */
  code?: string;
  /** For an authorization answered: `status decisionType statusReason`, e.g. `declined system-response timeout-error`. */
  decided?: string;
  ms: number;
  /** Why a request was cut off or failed without an answer: the error's code and message. */
  cause?: string;
  /** The request's LOAD_TAG_HEADER. */
  tag?: string;
}

export const emptyStats = (): LoadStats => ({
  sent: 0,
  answered: 0,
  cutOff: 0,
  timedOut: 0,
  outcomes: {},
  errors: [],
  cut: [],
  incidents: [],
});

export function addStats(into: LoadStats, from: LoadStats): void {
  into.sent += from.sent;
  into.answered += from.answered;
  into.cutOff += from.cutOff;
  into.timedOut += from.timedOut;
  for (const [key, n] of Object.entries(from.outcomes)) into.outcomes[key] = (into.outcomes[key] ?? 0) + n;
  into.errors.push(...from.errors);
  into.cut.push(...from.cut);
  into.incidents.push(...from.incidents);
}

export interface LoadContext {
  /** `tag` names the request (sent as LOAD_TAG_HEADER, kept in its incident). */
  request: (method: string, path: string, body?: unknown, tag?: string) => Promise<Reply>;
  random: () => number;
  cards: string[];
  customer: string;
  /** Approved captures that may be updated or reversed; shared across cycles, an entry is taken while in use. */
  approved: Array<{ id: string; card: string }>;
  /** Makes references unique per run and cycle. */
  label: string;
  /** At most this many bill payments wait at once (default 3); beyond it a bill payment becomes a capture. */
  maxBillsInFlight?: number;
}

const BILL_PRODUCTS = [
  { product: "bp.11pALsZ5g3CTGabps", input: "phoneNumber", prefix: "0803123", min: 5_000, max: 50_000 },
  { product: "bp.11pALsZ5v2NiSC34t", input: "meterNumber", prefix: "4500000", min: 100_000, max: 300_000 },
];

/** The sandbox biller's test numbers by their last four digits: declined, slow, pending → ok, pending → declined. */
const SPECIAL_ENDINGS: Array<[string, number]> = [
  ["1111", 0.08],
  ["2222", 0.04],
  ["3333", 0.05],
  ["4444", 0.05],
];

/** By default at most this many workers wait on bill payments at once (the rest keep the card flows busy). */
const MAX_BILLS_IN_FLIGHT = 3;

export interface RunningLoad {
  /** Sends no new request; those in flight go on (and are cut off by a kill). */
  stop(): void;
  finished: Promise<LoadStats>;
}

/** The mixed operations, each recording its outcome in `stats`; `next()` picks one at random and runs it. */
function loadOperations(ctx: LoadContext, stats: LoadStats): { next: () => Promise<unknown> } {
  let sequence = 0;
  const { random } = ctx;
  let billsInFlight = 0;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const count = (key: string) => (stats.outcomes[key] = (stats.outcomes[key] ?? 0) + 1);

  const send = async (op: string, method: string, path: string, body?: unknown): Promise<Reply | undefined> => {
    stats.sent++;
    const tag = `${ctx.label}-${stats.sent}`;
    const sentAt = Date.now();
    try {
      const reply = await ctx.request(method, path, body, tag);
      stats.answered++;
      const ms = Date.now() - sentAt;
      const data = reply.body?.data;
      if (reply.status >= 500 || ms > LATE_ANSWER_MS) {
        const decided = data?.decisionType
          ? `${data.status} ${data.decisionType} ${data.statusReason ?? ""}`.trim()
          : undefined;
        stats.incidents.push({ sentAt, op, outcome: reply.status, code: reply.body?.code, decided, ms, tag });
      }
      count(`${op} ${reply.status} ${data?.status ?? reply.body?.code ?? ""}`.trim());
      // Load shedding is an answer in time that nothing was created: counted in outcomes, not as an error.
      if (reply.status >= 500 && reply.body?.code !== "platform-overloaded")
        stats.errors.push(`${op} ${method} ${path} → ${reply.status} ${JSON.stringify(reply.body)}`);
      return reply;
    } catch (error) {
      const err = error as Error;
      const ms = Date.now() - sentAt;
      if (err.name === "TimeoutError" || err.name === "AbortError") {
        stats.timedOut++;
        stats.incidents.push({ sentAt, op, outcome: "timed-out", ms, tag });
      } else if (err instanceof CutOff) {
        stats.cutOff++;
        stats.cut.push(`${op} ${ms}ms`);
        stats.incidents.push({ sentAt, op, outcome: "cut-off", ms, cause: err.message, tag });
      } else {
        stats.errors.push(`${op} ${method} ${path} → ${err.name}: ${err.message}`);
        stats.incidents.push({ sentAt, op, outcome: "error", ms, cause: err.message, tag });
      }
      return undefined;
    }
  };

  const simulate = (op: string, card: string, kind: string, body: Record<string, unknown>) =>
    send(op, "POST", `/simulation/cards/${card}/request-authorization/${kind}`, body);

  const remember = (card: string, reply: Reply | undefined) => {
    const data = reply?.body?.data;
    if (reply?.status === 200 && data?.type === "capture" && data.status === "approved")
      ctx.approved.push({ id: data.id, card });
  };

  const takeApproved = () =>
    ctx.approved.length > 0 ? ctx.approved.splice(Math.floor(random() * ctx.approved.length), 1)[0] : undefined;

  const captureNew = async () => {
    const card = pick(ctx.cards);
    remember(
      card,
      await simulate("capture", card, "capture", {
        amount: between(1_000, 50_000),
        fees: between(0, 500),
        channel: pick(["online", "pos"]),
      }),
    );
  };

  const updateEarlier = async () => {
    const capture = takeApproved();
    if (!capture) return captureNew();
    const body = {
      authorization: capture.id,
      updateAmount: between(1_000, 60_000),
      updateFees: between(0, 500),
      channel: "online",
    };
    remember(capture.card, await simulate("update", capture.card, "update-capture", body));
  };

  const reverseEarlier = async () => {
    const capture = takeApproved();
    if (!capture) return captureNew();
    await simulate("reverse", capture.card, "reverse-capture", { authorization: capture.id, channel: "online" });
  };

  const check = () => simulate("check", pick(ctx.cards), "check", { channel: pick(["atm", "pos"]) });

  const billEnding = () => {
    let roll = random();
    for (const [special, share] of SPECIAL_ENDINGS) {
      if (roll < share) return special;
      roll -= share;
    }
    return String(between(5_000, 9_999));
  };

  const payBill = async () => {
    // A slow biller holds the bill-service's worker for its whole timeout: cap the workers waiting on bills.
    if (billsInFlight >= (ctx.maxBillsInFlight ?? MAX_BILLS_IN_FLIGHT)) return captureNew();
    const product = pick(BILL_PRODUCTS);
    billsInFlight++;
    await send("bill", "POST", "/payments/bill", {
      product: product.product,
      inputs: { [product.input]: product.prefix + billEnding(), amount: between(product.min, product.max) },
      reference: `${ctx.label}-bill-${++sequence}`,
      ...(random() < 0.5 && { customer: ctx.customer }),
    }).finally(() => billsInFlight--);
  };

  const operations: Array<[number, () => Promise<unknown>]> = [
    [0.4, captureNew],
    [0.15, updateEarlier],
    [0.1, reverseEarlier],
    [0.15, check],
    [0.2, payBill],
  ];

  const chooseOperation = () => {
    let roll = random();
    for (const [share, run] of operations) {
      if (roll < share) return run;
      roll -= share;
    }
    return operations[0]![1];
  };

  return { next: () => chooseOperation()() };
}

/** Closed loop: `concurrency` workers, each sending its next request when the last one is answered. */
export function startLoad(ctx: LoadContext, concurrency: number): RunningLoad {
  const stats = emptyStats();
  const operations = loadOperations(ctx, stats);
  let stopped = false;
  const worker = async () => {
    while (!stopped) await operations.next();
  };
  const finished = Promise.all(Array.from({ length: concurrency }, worker)).then(() => stats);
  return { stop: () => void (stopped = true), finished };
}

/**
 * Open loop, as a card network sends: one operation every 1/`perSecond` s whatever the answers do, so a stall shows
 * as waiting requests, not as fewer requests. At most `maxInFlight` wait at once (beyond it a tick is skipped and
 * counted in `stats.outcomes["skipped"]`), so a platform that stops answering cannot make the generator grow without bound.
 */
export function startPacedLoad(ctx: LoadContext, perSecond: number, maxInFlight = 2_000): RunningLoad {
  const stats = emptyStats();
  const operations = loadOperations(ctx, stats);
  const inFlight = new Set<Promise<unknown>>();
  const started = Date.now();
  let ticks = 0;
  let stopped = false;
  let wake: () => void = () => undefined;
  const driver = (async () => {
    while (!stopped) {
      const due = started + (ticks++ * 1_000) / perSecond;
      if (due > Date.now())
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, due - Date.now());
        });
      if (stopped) break;
      if (inFlight.size >= maxInFlight) {
        stats.outcomes.skipped = (stats.outcomes.skipped ?? 0) + 1;
        continue;
      }
      const running = operations.next().finally(() => inFlight.delete(running));
      inFlight.add(running);
    }
    await Promise.all(inFlight);
    return stats;
  })();
  return {
    stop: () => {
      stopped = true;
      wake();
    },
    finished: driver,
  };
}
