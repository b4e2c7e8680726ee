import type { ClaimLimits } from "../store/deliveries.store";

/** A chain: deliveries of one resource to one webhook, sent one after the other (a single delivery is a chain of one). */
export interface Chain {
  policy: "decision" | "notification";
  webhookId: string;
}

export interface SendLaneLimits {
  /** Sends under way at once, in all. */
  maxInFlight: number;
  /** Notifications under way at once to one webhook (decisions: this or half of maxInFlight, whichever is more). */
  perWebhook: number;
  /**
   * Notifications claimed ahead of a free slot, as a multiple of a lane's slots: they wait here for one, so the lane
   * never idles while the next claim runs. Decisions are never claimed ahead (their deadline runs).
   */
  prefetch: number;
}

interface Lane<C extends Chain> {
  busy: number;
  waiting: C[];
}

export interface SendLanes<C extends Chain> {
  /** A claimed chain: started now, kept until a slot frees, or refused (to be given back). */
  offer(chain: C): "start" | "wait" | "refuse";
  /** A started chain is done: the chains that may start now (decisions first, then each lane in turn). */
  finished(chain: C): C[];
  /** What a claim may take now: in all, for notifications, and per lane. */
  room(): Omit<ClaimLimits, "claimMs">;
  /** Everything still waiting for a slot, removed (at stop, to be given back). */
  drain(): C[];
  inFlight(): number;
}

/**
 * Slots for sends: a lane is a webhook's decisions or its notifications. A lane has a fixed number of slots, so a slow
 * receiver cannot take every slot; notifications never take the last quarter of all slots, so a backlog of them
 * cannot make decisions wait. No I/O: the delivery worker asks and acts.
 */
export function createSendLanes<C extends Chain>(limits: SendLaneLimits): SendLanes<C> {
  const { maxInFlight, perWebhook, prefetch } = limits;
  const reservedForDecisions = Math.floor(maxInFlight / 4);
  const perWebhookDecisions = Math.max(perWebhook, Math.floor(maxInFlight / 2));
  const lanes = new Map<string, Lane<C>>();
  let inFlight = 0;
  let notificationsInFlight = 0;
  let notificationsWaiting = 0;

  const keyOf = (c: Chain) => `${c.policy} ${c.webhookId}`;
  const slotsOf = (policy: string) => (policy === "decision" ? perWebhookDecisions : perWebhook);
  const laneOf = (c: Chain) => {
    const key = keyOf(c);
    let lane = lanes.get(key);
    if (!lane) lanes.set(key, (lane = { busy: 0, waiting: [] }));
    return lane;
  };
  const forget = (key: string, lane: Lane<C>) => {
    if (lane.busy === 0 && lane.waiting.length === 0) lanes.delete(key);
  };
  const canStart = (c: Chain, lane: Lane<C>) =>
    lane.busy < slotsOf(c.policy) &&
    inFlight < maxInFlight &&
    (c.policy === "decision" || notificationsInFlight < maxInFlight - reservedForDecisions);
  const start = (c: Chain, lane: Lane<C>) => {
    lane.busy += 1;
    inFlight += 1;
    if (c.policy === "notification") notificationsInFlight += 1;
  };
  const laneBudget = (policy: string) => (policy === "decision" ? perWebhookDecisions : perWebhook * prefetch);

  return {
    offer(chain) {
      const lane = laneOf(chain);
      if (canStart(chain, lane)) {
        start(chain, lane);
        return "start";
      }
      if (chain.policy === "notification" && lane.busy + lane.waiting.length < laneBudget("notification")) {
        lane.waiting.push(chain);
        notificationsWaiting += 1;
        return "wait";
      }
      forget(keyOf(chain), lane);
      return "refuse";
    },

    finished(chain) {
      const key = keyOf(chain);
      const lane = lanes.get(key);
      if (lane) lane.busy -= 1;
      inFlight -= 1;
      if (chain.policy === "notification") notificationsInFlight -= 1;
      if (lane) forget(key, lane);
      const startable: C[] = [];
      // The lane that freed a slot first, then the others in turn, one each per pass, while slots last.
      let progressed = true;
      while (progressed) {
        progressed = false;
        for (const [k, l] of lane && lanes.has(key) ? [[key, lane] as const, ...lanes] : lanes) {
          const next = l.waiting[0];
          if (!next || !canStart(next, l)) continue;
          l.waiting.shift();
          notificationsWaiting -= 1;
          start(next, l);
          startable.push(next);
          progressed = true;
          forget(k, l);
        }
      }
      return startable;
    },

    room() {
      const free = Math.max(0, maxInFlight - inFlight);
      const notificationBudget = (maxInFlight - reservedForDecisions) * prefetch;
      const notifications = Math.max(0, notificationBudget - notificationsInFlight - notificationsWaiting);
      // Decisions never wait in memory: a lane's room for them is also bounded by the slots free now.
      const roomOf = (policy: string, left: number) => Math.max(0, policy === "decision" ? Math.min(left, free) : left);
      const busy = [...lanes].map(([key, lane]) => {
        const [policy, webhookId] = key.split(" ") as [string, string];
        return { webhookId, policy, room: roomOf(policy, laneBudget(policy) - lane.busy - lane.waiting.length) };
      });
      return {
        limit: free + notifications,
        notifications,
        perWebhookDecisions: roomOf("decision", perWebhookDecisions),
        perWebhookNotifications: perWebhook * prefetch,
        busy,
      };
    },

    drain() {
      const all = [...lanes.values()].flatMap((lane) => lane.waiting.splice(0));
      notificationsWaiting = 0;
      for (const [key, lane] of lanes) forget(key, lane);
      return all;
    },

    inFlight: () => inFlight,
  };
}
