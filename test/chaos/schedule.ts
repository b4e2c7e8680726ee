/**
 * The chaos run's faults, in order, for a run of a given length: every service instance SIGKILLed in turn (and
 * started again 2 s later), the Kafka broker stopped and started once, PostgreSQL killed hard and started once, the
 * wallet receiver stalled for 10 s and the payments receiver answering 500 for 20 s. Times scale with the run; the
 * faults' own lengths do not. Pure: the run carries it out.
 */
export type Fault =
  | { kind: "kill-instance"; instance: string; atMs: number; restartAfterMs: number }
  | { kind: "kafka-outage"; atMs: number; downForMs: number }
  | { kind: "postgres-outage"; atMs: number; downForMs: number }
  | { kind: "receiver-stall"; atMs: number; forMs: number }
  | { kind: "receiver-errors"; atMs: number; forMs: number };

export const RESTART_AFTER_MS = 2_000;
/** Shorter runs than this cannot fit the faults apart from one another. */
export const SHORTEST_RUN_S = 40;

/** The instances killed in turn: the replicated ones alternate with the single ones. */
export const KILL_ORDER = [
  "authorization-engine-1",
  "api-gateway-1",
  "event-dispatcher-1",
  "customer-service-1",
  "authorization-engine-2",
  "api-gateway-2",
  "event-dispatcher-2",
  "webhook-registry-1",
  "bill-service-1",
];

export function chaosSchedule(runSeconds: number): Fault[] {
  if (!(runSeconds >= SHORTEST_RUN_S))
    throw new Error(`a chaos run lasts at least ${SHORTEST_RUN_S} s (asked: ${runSeconds})`);
  const at = (share: number) => Math.round(runSeconds * 1_000 * share);
  // Kills over the first half, one every 5 % of the run; the broker at 55 %, the database at 78 %, so each outage
  // and its recovery stand apart from the others in the results.
  const kills: Fault[] = KILL_ORDER.map((instance, i) => ({
    kind: "kill-instance",
    instance,
    atMs: at(0.05 + i * 0.05),
    restartAfterMs: RESTART_AFTER_MS,
  }));
  const faults: Fault[] = [
    ...kills,
    { kind: "receiver-stall", atMs: at(0.07), forMs: 10_000 },
    { kind: "receiver-errors", atMs: at(0.17), forMs: 20_000 },
    { kind: "kafka-outage", atMs: at(0.55), downForMs: 5_000 },
    { kind: "postgres-outage", atMs: at(0.78), downForMs: 3_000 },
  ];
  return faults.sort((a, b) => a.atMs - b.atMs);
}

/** When a fault is over: its own length plus the time the restarted part took to be ready again. */
export interface FaultWindow {
  what: string;
  fromMs: number;
  toMs: number;
}

/**
 * The window a request from `sentMs` to `answeredMs` overlaps (each window stretched by `graceMs` after its end), or
 * undefined: a request sent just before a kill and cut off by it belongs to the kill.
 */
export function windowOf(
  windows: FaultWindow[],
  sentMs: number,
  answeredMs: number,
  graceMs: number,
): FaultWindow | undefined {
  return windowsOf(windows, sentMs, answeredMs, graceMs)[0];
}

/** Every fault window a request overlapped, in schedule order. */
export function windowsOf(windows: FaultWindow[], sentMs: number, answeredMs: number, graceMs: number): FaultWindow[] {
  return windows.filter((w) => answeredMs >= w.fromMs && sentMs <= w.toMs + graceMs);
}
