import type { ClaimLimits } from "../store/deliveries.store";

/** A chain: deliveries of one resource to one webhook, sent one after the other (a single delivery is a chain of one). */
export interface Chain {
  policy: "decision" | "notification";
  webhookId: string;
}

/**
 * How a chain's sends went, for its lane's window: every send delivered (2xx) within FAST_ANSWER_MS, delivered but
 * slower, or not delivered (another status, a timeout, no connection). Unknown when nothing was sent (no webhook, too
 * late to ask, given back) or its bookkeeping failed.
 */
export type ChainOutcome = "fast" | "slow" | "trouble" | "unknown";

/** An answer this quick says the receiver is not queueing: its webhook may get one more notification slot. */
export const FAST_ANSWER_MS = 1_000;

export interface SendLaneLimits {
  /** Sends under way at once, in all. */
  maxInFlight: number;
  /**
   * Notifications under way at once to one webhook, at most (decisions: this or half of maxInFlight, whichever is
   * more). A webhook's notification window starts at `startPerWebhook` and grows up to this while it answers fast.
   */
  perWebhook: number;
  /** A webhook's notification window to begin with, and its least after trouble halves it. */
  startPerWebhook: number;
  /**
   * Notifications claimed ahead of a free slot, as a multiple of a lane's slots: they wait here for one, so the lane
   * never idles while the next claim runs. Decisions are never claimed ahead (their deadline runs).
   */
  prefetch: number;
}

interface Lane<C extends Chain> {
  busy: number;
  waiting: C[];
  /** Slots this lane may use now (notifications: its window; decisions: fixed). */
  slots: number;
}

export interface SendLanes<C extends Chain> {
  /** A claimed chain: started now, kept until a slot frees, or refused (to be given back). */
  offer(chain: C): "start" | "wait" | "refuse";
  /**
   * A started chain is done, as `outcome` says: the chains that may start now (its own lane first, then each lane in
   * turn). A notification lane's window grows by one slot on a fast outcome and halves on trouble.
   */
  finished(chain: C, outcome?: ChainOutcome): C[];
  /** What a claim may take now: in all, for notifications, and per lane. */
  room(): Omit<ClaimLimits, "claimMs">;
  /** Everything still waiting for a slot, removed (at stop, to be given back). */
  drain(): C[];
  inFlight(): number;
}

/**
 * Slots for sends: a lane is a webhook's decisions or its notifications, with its own slots, so a slow receiver cannot
 * take every slot; notifications never take the last quarter of all slots, so a backlog of them cannot make decisions
 * wait. A notification lane's slots are a window, as in TCP's congestion control: one more after each fast answer, half
 * after trouble, between the start and the most per webhook; a lane with a grown window is remembered while idle.
 * No I/O: the delivery worker asks and acts.
 */
export function createSendLanes<C extends Chain>(limits: SendLaneLimits): SendLanes<C> {
  const { maxInFlight, perWebhook, prefetch } = limits;
  const startPerWebhook = Math.min(limits.startPerWebhook, perWebhook);
  const reservedForDecisions = Math.floor(maxInFlight / 4);
  const perWebhookDecisions = Math.max(perWebhook, Math.floor(maxInFlight / 2));
  const lanes = new Map<string, Lane<C>>();
  let inFlight = 0;
  let notificationsInFlight = 0;
  let notificationsWaiting = 0;

  const keyOf = (c: Chain) => `${c.policy} ${c.webhookId}`;
  const startSlots = (policy: string) => (policy === "decision" ? perWebhookDecisions : startPerWebhook);
  const laneOf = (c: Chain) => {
    const key = keyOf(c);
    let lane = lanes.get(key);
    if (!lane) lanes.set(key, (lane = { busy: 0, waiting: [], slots: startSlots(c.policy) }));
    return lane;
  };
  const forget = (key: string, lane: Lane<C>) => {
    if (lane.busy === 0 && lane.waiting.length === 0 && lane.slots === startSlots(key.slice(0, key.indexOf(" "))))
      lanes.delete(key);
  };
  const adapt = (lane: Lane<C>, outcome: ChainOutcome) => {
    if (outcome === "fast") lane.slots = Math.min(perWebhook, lane.slots + 1);
    if (outcome === "trouble") lane.slots = Math.max(startPerWebhook, Math.floor(lane.slots / 2));
  };
  const canStart = (c: Chain, lane: Lane<C>) =>
    lane.busy < lane.slots &&
    inFlight < maxInFlight &&
    (c.policy === "decision" || notificationsInFlight < maxInFlight - reservedForDecisions);
  const start = (c: Chain, lane: Lane<C>) => {
    lane.busy += 1;
    inFlight += 1;
    if (c.policy === "notification") notificationsInFlight += 1;
  };
  /** What a lane may hold between sends under way and sends waiting (decisions never wait). */
  const laneBudget = (policy: string, slots: number) => (policy === "decision" ? slots : slots * prefetch);

  return {
    offer(chain) {
      const lane = laneOf(chain);
      if (canStart(chain, lane)) {
        start(chain, lane);
        return "start";
      }
      if (chain.policy === "notification" && lane.busy + lane.waiting.length < laneBudget("notification", lane.slots)) {
        lane.waiting.push(chain);
        notificationsWaiting += 1;
        return "wait";
      }
      forget(keyOf(chain), lane);
      return "refuse";
    },

    finished(chain, outcome = "unknown") {
      const key = keyOf(chain);
      const lane = lanes.get(key);
      if (lane) lane.busy -= 1;
      if (lane && chain.policy === "notification") adapt(lane, outcome);
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
        return {
          webhookId,
          policy,
          room: roomOf(policy, laneBudget(policy, lane.slots) - lane.busy - lane.waiting.length),
        };
      });
      return {
        limit: free + notifications,
        notifications,
        perWebhookDecisions: roomOf("decision", perWebhookDecisions),
        perWebhookNotifications: laneBudget("notification", startPerWebhook),
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
