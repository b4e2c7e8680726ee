/** What a delivery learns when it claims its event id. */
export type EventClaim = { first: true } | { first: false; answer: unknown };

/**
 * One delivery's view of the store, inside one transaction. `tx` is the application's own transaction handle
 * (a database client, say): the receiver passes it to the handlers so their changes commit with the duplicate
 * tracking, or roll back with it.
 */
export interface DeliverySession<Tx> {
  readonly tx: Tx;
  /**
   * Claims an event id for this delivery: `{first: true}` the first time, else the answer remembered for it.
   * A database store makes a concurrent second delivery of the same id wait for the first (a unique key).
   */
  claimEvent(eventId: string): Promise<EventClaim>;
  remember(eventId: string, answer: unknown): Promise<void>;
  /** True the first time an authorization id is claimed for a capture; false for a repeated capture. */
  claimAuthorization(authorizationId: string): Promise<boolean>;
  /** Keeps when the platform made the latest closed event handled for a claimed authorization (`madeAt`, ISO 8601). */
  recordClosed(authorizationId: string, madeAt: string): Promise<void>;
  /**
   * True when a closed event made after `madeAt` was handled for this authorization: a decision request made at
   * `madeAt` is then one the platform already decided without this receiver (its answer came too late). A database
   * store locks the authorization's claim, so a closed event handled at the same time waits for this delivery.
   */
  closedSince(authorizationId: string, madeAt: string): Promise<boolean>;
}

/** Where a receiver remembers what it answered, so a resent event gets the same answer and changes nothing. */
export interface DeliveryStore<Tx = undefined> {
  /** Runs one delivery: everything `work` does commits together, or nothing does when it throws. */
  transaction<T>(work: (session: DeliverySession<Tx>) => Promise<T>): Promise<T>;
}

/**
 * In-memory store for tests and single-process receivers; use a database-backed one in production. Deliveries
 * run one at a time (so a handler's awaits cannot interleave with another delivery) and a failed one leaves no trace.
 */
export function memoryDeliveryStore(): DeliveryStore<undefined> {
  const answers = new Map<string, unknown>();
  const captures = new Set<string>();
  const closedAt = new Map<string, number>();
  let queue: Promise<unknown> = Promise.resolve();

  async function run<T>(work: (session: DeliverySession<undefined>) => Promise<T>): Promise<T> {
    const newAnswers = new Map<string, unknown>();
    const newCaptures = new Set<string>();
    const newClosedAt = new Map<string, number>();
    const latestClosed = (id: string) => newClosedAt.get(id) ?? closedAt.get(id);
    const result = await work({
      tx: undefined,
      claimEvent: async (eventId) => {
        const known = answers.has(eventId) || newAnswers.has(eventId);
        return known ? { first: false, answer: answers.get(eventId) ?? newAnswers.get(eventId) } : { first: true };
      },
      remember: async (eventId, answer) => void newAnswers.set(eventId, answer),
      claimAuthorization: async (id) => {
        if (captures.has(id) || newCaptures.has(id)) return false;
        newCaptures.add(id);
        return true;
      },
      recordClosed: async (id, madeAt) =>
        void newClosedAt.set(id, Math.max(latestClosed(id) ?? -Infinity, Date.parse(madeAt))),
      closedSince: async (id, madeAt) => (latestClosed(id) ?? -Infinity) > Date.parse(madeAt),
    });
    for (const [eventId, answer] of newAnswers) answers.set(eventId, answer);
    for (const id of newCaptures) captures.add(id);
    for (const [id, at] of newClosedAt) closedAt.set(id, at);
    return result;
  }

  return {
    transaction(work) {
      const result = queue.then(() => run(work));
      queue = result.catch(() => undefined);
      return result;
    },
  };
}
