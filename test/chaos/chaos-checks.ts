import pg from "pg";
import type { WalletProcess } from "./wallet-process";
import { apiClient } from "../support/api-client";
import { LATE_ANSWER_MS, type Incident, type LoadStats } from "../support/crash-load";
import { ledgerProblems } from "../support/ledger-invariants";
import {
  countByStatus,
  missingFinalEvents,
  paymentMoneyProblems,
  stillBusy,
  type Query,
  type ReceivedEnvelope,
} from "../support/platform-audit";
import { windowsOf, type FaultWindow } from "./schedule";

/** How long after the load the platform may take to settle (retries, claims of killed dispatchers, slow billers). */
const QUIET_TIMEOUT_MS = 180_000;
/** An incident this soon after a fault's end still belongs to it (clients' connections, caches, rebalances). */
const GRACE_MS = 3_000;

export interface Audit {
  quietAfterMs: number;
  stillBusy: string[];
  missingEvents: string[];
  ledger: string[];
  payments: string[];
  wallets: string[];
  authorizations: Record<string, number>;
  declineReasons: Record<string, number>;
  billPayments: Record<string, number>;
  deliveries: { received: number; distinct: number };
  /** Every decision asked of a receiver: its deadline and when the platform decided it (epoch ms). */
  decisions: Decision[];
}

export interface Decision {
  answerBy: number;
  decidedAt: number;
  /** Ended by the timeout default (statusReason timeout-error): no usable answer reached the engine in time. */
  timedOut: boolean;
}

interface AuditOptions {
  databaseUrl: string;
  gatewayUrl: string;
  key: string;
  wallets: WalletProcess;
  walletOf: Map<string, string>;
  received: () => ReceivedEnvelope[];
  log: (line: string) => void;
}

/** Waits until nothing moves any more (or the quiet timeout), then reads every check from the platform and the wallets. */
export async function auditAfterRun(opts: AuditOptions): Promise<Audit> {
  const db = new pg.Client({ connectionString: opts.databaseUrl });
  await db.connect();
  const query: Query = (text) => db.query(text);
  try {
    const quietSince = Date.now();
    let busy: string[] = [];
    let missing: string[] = [];
    while (Date.now() - quietSince < QUIET_TIMEOUT_MS) {
      busy = await stillBusy(query);
      missing = busy.length ? [] : await missingFinalEvents(query, opts.received());
      if (!busy.length && !missing.length) break;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    const quietAfterMs = Date.now() - quietSince;
    opts.log(
      `settled after ${Math.round(quietAfterMs / 1_000)} s${busy.length || missing.length ? " (not quite: see the checks)" : ""}`,
    );
    const envelopes = opts.received().map((e) => e.metadata?.event);
    const { rows: reasons } = await db.query(
      "SELECT COALESCE(status_reason, decline_reason, '-') AS reason, count(*)::int AS n FROM engine.authorizations WHERE status = 'declined' GROUP BY 1 ORDER BY 2 DESC",
    );
    return {
      quietAfterMs,
      stillBusy: busy,
      missingEvents: missing,
      ledger: await ledgerProblems(query),
      payments: await paymentMoneyProblems(query),
      wallets: await walletMismatches(opts, await reversalCredits(query)),
      authorizations: await countByStatus(query, "engine.authorizations"),
      declineReasons: Object.fromEntries(reasons.map((r) => [r.reason as string, r.n as number])),
      billPayments: await countByStatus(query, "bills.payments"),
      deliveries: { received: envelopes.length, distinct: new Set(envelopes).size },
      decisions: await decisionTimes(query),
    };
  } finally {
    await db.end();
  }
}

/**
 * When each decision asked of a receiver was made, by the engine's clock. The question carries its deadline
 * (`answer_by`); the decision's transaction emits the authorization's next event (closed, or for an approved capture
 * the transaction's, which names it), stamped with the decision's time (`metadata.sentAt`). A check emits nothing
 * more once decided, so its row's last change is its decision. From the dispatcher's record of every event.
 */
async function decisionTimes(query: Query): Promise<Decision[]> {
  const { rows } = await query(`
    WITH e AS (SELECT id, answer_by, COALESCE(envelope::jsonb -> 'data' ->> 'authorization', resource_id) AS authorization_id,
                      (envelope::jsonb -> 'metadata' ->> 'sentAt')::timestamptz AS sent_at,
                      envelope::jsonb -> 'data' ->> 'statusReason' AS status_reason
                 FROM dispatcher.events WHERE kind LIKE 'card.%'),
         q AS (SELECT authorization_id, answer_by, lead(sent_at) OVER next AS next_at, lead(status_reason) OVER next AS next_reason
                 FROM e WINDOW next AS (PARTITION BY authorization_id ORDER BY sent_at, id))
    SELECT q.answer_by, COALESCE(q.next_at, a.updated_at) AS decided_at, COALESCE(q.next_reason, a.status_reason) AS reason
      FROM q LEFT JOIN engine.authorizations a ON a.id = q.authorization_id AND a.type = 'check'
     WHERE q.answer_by IS NOT NULL`);
  return rows.map((r) => ({
    answerBy: (r.answer_by as Date).getTime(),
    decidedAt: r.decided_at ? (r.decided_at as Date).getTime() : Infinity,
    timedOut: r.reason === "timeout-error",
  }));
}

/**
 * Per card, what its reversals credited to the program's settlement account: interface Rule 4 credits a reversal
 * there, also for a card-account card, while the receiver gives the money back to the wallet.
 */
async function reversalCredits(query: Query): Promise<Map<string, number>> {
  const { rows } = await query(`
    SELECT au.card_id, COALESCE(sum(e.amount), 0)::bigint AS credited
      FROM engine.ledger_movements m
      JOIN engine.authorizations au ON au.id = m.reference
      JOIN engine.ledger_entries e ON e.movement_id = m.id AND e.account_id = au.settlement_account_id
     WHERE m.kind = 'reversal'
     GROUP BY au.card_id`);
  return new Map(rows.map((r) => [r.card_id as string, Number(r.credited)]));
}

/**
 * Each wallet against its card's account on the platform: the same available balance once the reversals credited to
 * the settlement account are counted back, and nothing locked or held.
 */
async function walletMismatches(opts: AuditOptions, reversed: Map<string, number>): Promise<string[]> {
  const call = apiClient(
    () => opts.gatewayUrl,
    () => opts.key,
  );
  const problems: string[] = [];
  for (const [card, walletId] of opts.walletOf) {
    const balance = (await call("GET", `/cards/${card}/funding-source/balance`)).body.data as {
      available: number;
      held: number;
    };
    const wallet = (await (await fetch(`${opts.wallets.url}/wallets/${walletId}`)).json()) as {
      available: number;
      locked: number;
    };
    const credited = reversed.get(card) ?? 0;
    if (wallet.available !== balance.available + credited || wallet.locked !== 0 || balance.held !== 0) {
      problems.push(
        `card ${card}: wallet available ${wallet.available} locked ${wallet.locked}; card account available ${balance.available} held ${balance.held}, reversals credited to settlement ${credited}`,
      );
      problems.push(...(await authorizationMismatches(opts, card)).map((line) => `  ${line}`));
    }
  }
  return problems;
}

/**
 * What happened to one authorization's events, for a mismatch to be debugged from the run's output alone: each event
 * the platform made for it (when the engine made it, when the dispatcher stored it) with its delivery to the wallet's webhook (seq, status, attempts, each attempt's start and
 * HTTP status), then the order the wallet acknowledged them in.
 */
async function eventTimeline(db: pg.Client, received: ReceivedEnvelope[], authorizationId: string): Promise<string[]> {
  const { rows } = await db.query(
    `SELECT e.id, e.kind, e.envelope::jsonb -> 'data' ->> 'status' AS status, e.envelope::jsonb -> 'data' ->> 'amount' AS amount,
            e.envelope::jsonb -> 'metadata' ->> 'sentAt' AS made_at, e.created_at, d.seq, d.policy, d.status AS delivery, d.attempts,
            (SELECT string_agg(to_char(a.started_at, 'HH24:MI:SS.MS') || ' ' || COALESCE(a.http_status::text, a.error, '?'), ', ' ORDER BY a.id)
               FROM dispatcher.attempts a WHERE a.delivery_id = d.id) AS tries
       FROM dispatcher.events e LEFT JOIN dispatcher.deliveries d ON d.event_id = e.id
      WHERE e.resource_id = $1 OR e.envelope::jsonb -> 'data' ->> 'authorization' = $1
      ORDER BY d.seq NULLS LAST, e.created_at`,
    [authorizationId],
  );
  const made = rows.map(
    (r) =>
      `seq ${r.seq ?? "-"} ${r.kind} ${r.status ?? ""} ${r.amount ?? ""} made ${r.made_at ? String(r.made_at).slice(11, 23) : "?"}, stored ${(r.created_at as Date).toISOString().slice(11, 23)}; ${r.policy ?? ""} ${r.delivery ?? "no delivery"} after ${r.attempts ?? 0} attempts: ${r.tries ?? "none"}`,
  );
  const acknowledged = received
    .filter((e) => e.data?.id === authorizationId || e.data?.authorization === authorizationId)
    .map((e) => `${e.event} ${e.data?.status ?? ""} ${e.data?.amount ?? ""}`);
  return [...made, `wallet acknowledged, in order: ${acknowledged.join(" → ") || "nothing"}`];
}

/** Per authorization of a card: what the wallet debited against what the platform took from the card's account. */
async function authorizationMismatches(opts: AuditOptions, card: string): Promise<string[]> {
  const liens = (
    (await (await fetch(`${opts.wallets.url}/liens?card=${card}`)).json()) as {
      data: Array<{ authorization: string; debited: number; locked: number }>;
    }
  ).data;
  const db = new pg.Client({ connectionString: opts.databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query(
      `SELECT au.id, au.type, au.status, au.decision_type, au.status_reason, au.amount, au.fees,
              COALESCE((SELECT -sum(e.amount) FROM engine.ledger_entries e WHERE e.reference = au.id AND e.account_id = au.account_id), 0)::bigint AS taken,
              COALESCE((SELECT sum(e.amount) FROM engine.ledger_entries e WHERE e.reference = au.id AND e.account_id = au.settlement_account_id), 0)::bigint AS to_settlement
         FROM engine.authorizations au WHERE au.card_id = $1`,
      [card],
    );
    const debitedByWallet = new Map(liens.map((l) => [l.authorization, l.debited]));
    const mismatched = rows
      .filter((r) => Number(r.taken) - Number(r.to_settlement) !== (debitedByWallet.get(r.id) ?? 0))
      .slice(0, 8);
    const lines: string[] = [];
    for (const r of mismatched) {
      lines.push(
        `${r.id} ${r.type} ${r.status} (${r.decision_type}/${r.status_reason}) ${r.amount}+${r.fees}: platform took ${r.taken}, credited settlement ${r.to_settlement}; wallet debited ${debitedByWallet.get(r.id) ?? "nothing"}`,
        ...(await eventTimeline(db, opts.received(), r.id as string)).map((line) => `  ${line}`),
      );
    }
    return lines;
  } finally {
    await db.end();
  }
}

interface ReportInput {
  seed: number;
  seconds: number;
  rate: number;
  stats: LoadStats;
  windows: FaultWindow[];
  audit: Audit;
  startedAt: number;
  /** Whether a late answer outside the database outage fails the run (otherwise it is reported only). */
  lateAnswersFail: boolean;
}

const CARD_OPERATIONS = new Set(["capture", "update", "reverse", "check"]);
const isDatabaseOutage = (w: FaultWindow | undefined) => Boolean(w?.what.startsWith("PostgreSQL"));

const countBy = <T>(items: T[], key: (item: T) => string) =>
  items.reduce<Record<string, number>>(
    (counts, item) => ({ ...counts, [key(item)]: (counts[key(item)] ?? 0) + 1 }),
    {},
  );

/** How many late answers came within 100 ms of the limit, within 250 ms, within 750 ms, and later. */
function lateness(late: Incident[]): string {
  const buckets: Array<[string, number]> = [
    ["≤ +100 ms", 100],
    ["≤ +250 ms", 250],
    ["≤ +750 ms", 750],
    ["later", Infinity],
  ];
  const counts = buckets.map(([label, within]) => [label, 0, within] as [string, number, number]);
  for (const i of late) counts.find(([, , within]) => i.ms - LATE_ANSWER_MS <= within)![1]++;
  return counts.map(([label, n]) => `${label} ${n}`).join(", ");
}

/** Prints the run's faults and checks; true when every check passed. */
export function printReport(input: ReportInput): boolean {
  const { stats, windows, audit } = input;
  // A request that overlapped the database outage is put down to it (its deadline may have fallen in it), else to the
  // first fault it overlapped.
  const windowFor = (i: Incident) => {
    const overlapped = windowsOf(windows, i.sentAt - input.startedAt, i.sentAt - input.startedAt + i.ms, GRACE_MS);
    return overlapped.find(isDatabaseOutage) ?? overlapped[0];
  };
  // Load shedding (503 platform-overloaded) is the engine's answer in time when it cannot ask the receiver in time:
  // counted on its own, not as a failure.
  const shed = stats.incidents.filter((i) => i.code === "platform-overloaded");
  const failures = stats.incidents.filter(
    (i) =>
      i.outcome !== "timed-out" &&
      i.code !== "platform-overloaded" &&
      (typeof i.outcome !== "number" || i.outcome >= 500),
  );
  // A card network's request (a bill payment is not one: it answers 202 once it has waited 8 s for the biller).
  const late = stats.incidents.filter(
    (i) => CARD_OPERATIONS.has(i.op) && typeof i.outcome === "number" && i.outcome < 500 && i.ms > LATE_ANSWER_MS,
  );
  const describe = (list: Incident[]) => {
    const counts = new Map<string, number>();
    for (const i of list) {
      const key = windowFor(i)?.what ?? "outside every fault";
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  };
  const failuresByWindow = describe(failures);
  const lateByWindow = describe(late);
  const lateOutsideDatabase = late.filter((i) => !isDatabaseOutage(windowFor(i)));
  // The platform's side of the same promise: decisions made later than deadline + 250 ms, by the engine's clock.
  const decidedLate = audit.decisions.filter((d) => d.decidedAt - d.answerBy > LATE_ANSWER_MS - 4_000);
  const decisionWindow = (d: Decision) => {
    const overlapped = windowsOf(
      windows,
      d.answerBy - 4_000 - input.startedAt,
      Math.min(d.decidedAt, d.answerBy + 60_000) - input.startedAt,
      GRACE_MS,
    );
    return overlapped.find(isDatabaseOutage) ?? overlapped[0];
  };
  const byDecisionWindow = (list: Decision[]) => countBy(list, (d) => decisionWindow(d)?.what ?? "outside every fault");
  const decidedLateByWindow = byDecisionWindow(decidedLate);
  const timedOutByWindow = byDecisionWindow(audit.decisions.filter((d) => d.timedOut));
  const askedByWindow = byDecisionWindow(audit.decisions);
  const decidedLateOutsideDatabase = decidedLate.filter((d) => !isDatabaseOutage(decisionWindow(d)));

  const lines = [
    `chaos run: seed ${input.seed}, ${input.seconds} s at ${input.rate}/s, two instances of the engine, the dispatcher and the gateway`,
    "",
    "| fault | from | ready again | 5xx or cut off (shedding apart) | decided after deadline + 250 ms | answered after deadline + 250 ms | decisions ended by the timeout default |",
    "|---|---|---|---|---|---|---|",
    ...[
      ...windows
        .sort((a, b) => a.fromMs - b.fromMs)
        .map((w) => [w.what, `${(w.fromMs / 1_000).toFixed(1)} s`, `${(w.toMs / 1_000).toFixed(1)} s`]),
      ["outside every fault", "", ""],
    ].map(
      ([what, from, to]) =>
        `| ${what === "outside every fault" ? `(outside every fault, ${GRACE_MS / 1_000} s grace after each)` : what} | ${from} | ${to} | ` +
        `${failuresByWindow.get(what!) ?? 0} | ${decidedLateByWindow[what!] ?? 0} | ${lateByWindow.get(what!) ?? 0} | ` +
        `${timedOutByWindow[what!] ?? 0} of ${askedByWindow[what!] ?? 0} |`,
    ),
    "",
    `refused at once by load shedding (503 platform-overloaded): ${shed.length}, ${[...describe(shed)].map(([what, n]) => `${n} in "${what}"`).join(", ") || "none"}`,
    `requests: ${stats.sent} sent, ${stats.answered} answered, ${stats.cutOff} cut off, ${stats.timedOut} timed out (30 s)`,
    `outcomes: ${JSON.stringify(stats.outcomes)}`,
    `authorizations: ${JSON.stringify(audit.authorizations)}; declined by reason: ${JSON.stringify(audit.declineReasons)}`,
    `bill payments: ${JSON.stringify(audit.billPayments)}`,
    `deliveries acknowledged: ${audit.deliveries.received} (${audit.deliveries.distinct} distinct events, ${audit.deliveries.received - audit.deliveries.distinct} duplicates)`,
    `decisions asked of a receiver: ${audit.decisions.length}, decided after deadline + 250 ms: ${decidedLate.length}` +
      ` (by the second of their deadline: ${JSON.stringify(countBy(decidedLate, (d) => String(Math.floor((d.answerBy - input.startedAt) / 1_000))))})`,
    `late card answers by how late: ${lateness(late)}`,
    `late card answers by fault and decision: ${JSON.stringify(
      countBy(
        late,
        (i) => `${windowFor(i)?.what ?? "outside every fault"}: ${i.op} ${i.decided ?? i.code ?? i.outcome}`,
      ),
      null,
      1,
    )}`,
    `settled ${Math.round(audit.quietAfterMs / 1_000)} s after the load stopped`,
    "",
  ];
  const checks: Array<[string, string[], "must" | "report"]> = [
    ["every authorization and payment final, every outbox and delivery done", audit.stillBusy, "must"],
    ["every final-state event delivered at least once", audit.missingEvents, "must"],
    ["the ledger: every movement balanced, the books sum to zero, no hold left open", audit.ledger, "must"],
    ["every bill payment debited exactly once (or refunded)", audit.payments, "must"],
    ["each wallet's balance equals its card account", audit.wallets, "must"],
    [
      "no 5xx, cut-off or unanswered request outside the faults",
      failuresByWindow.has("outside every fault")
        ? [
            `${failuresByWindow.get("outside every fault")} outside: ${JSON.stringify(failures.filter((i) => !windowFor(i)).slice(0, 10))}`,
          ]
        : [],
      "must",
    ],
    [
      "no decision later than deadline + 250 ms outside the database outage",
      decidedLateOutsideDatabase.length > 0
        ? [
            `${decidedLateOutsideDatabase.length} late: ${JSON.stringify(decidedLateOutsideDatabase.slice(0, 10).map((d) => ({ ...d, lateMs: d.decidedAt - d.answerBy, atS: (d.answerBy - input.startedAt) / 1_000 })))}`,
          ]
        : [],
      input.lateAnswersFail ? "must" : "report",
    ],
    [
      "no answer later than deadline + 250 ms outside the database outage",
      lateOutsideDatabase.length > 0
        ? [`${lateOutsideDatabase.length} late: ${JSON.stringify(lateOutsideDatabase.slice(0, 10))}`]
        : [],
      input.lateAnswersFail ? "must" : "report",
    ],
    [
      "no request without any answer after 30 s",
      stats.timedOut > 0
        ? [
            `${stats.timedOut} timed out: ${JSON.stringify(
              stats.incidents
                .filter((i) => i.outcome === "timed-out")
                .slice(0, 10)
                .map((i) => ({ op: i.op, sentAtS: (i.sentAt - input.startedAt) / 1_000, during: windowFor(i)?.what })),
            )}`,
          ]
        : [],
      "must",
    ],
  ];
  for (const [name, problems, kind] of checks) {
    lines.push(`${problems.length === 0 ? "PASS" : kind === "must" ? "FAIL" : "NOT MET (reported only)"} ${name}`);
    for (const problem of problems.slice(0, 20)) lines.push(`     ${problem}`);
    if (problems.length > 20) lines.push(`     … and ${problems.length - 20} more`);
  }
  process.stdout.write(lines.join("\n") + "\n");
  return checks.every(([, problems, kind]) => problems.length === 0 || kind === "report");
}
