/** Where a receiver remembers what it answered, so a resent event gets the same answer and changes nothing. */
export interface DeliveryStore {
  /** The answer given to this event id before, if any. */
  recall(eventId: string): Promise<unknown | undefined>;
  remember(eventId: string, answer: unknown): Promise<void>;
  /** True the first time an authorization id is claimed for a capture; false for a repeated capture. */
  claimAuthorization(authorizationId: string): Promise<boolean>;
}

/** In-memory store for tests and single-process receivers; use a database-backed one in production. */
export function memoryDeliveryStore(): DeliveryStore {
  const answers = new Map<string, unknown>();
  const captures = new Set<string>();
  return {
    recall: async (eventId) => answers.get(eventId),
    remember: async (eventId, answer) => void answers.set(eventId, answer),
    claimAuthorization: async (id) => {
      if (captures.has(id)) return false;
      captures.add(id);
      return true;
    },
  };
}
