import type { AccountNameProvider } from "./banks/account-names";
import type { Biller } from "./billers/biller";
import type { SandboxBillerOptions } from "./billers/sandbox-biller";
import type { BankRail } from "./payouts/bank-rail";

/** What createService can be given; every setting has a default (main.ts reads them from BILL_* variables). */
export interface BillServiceOptions {
  /** The biller adapter; default: the sandbox biller over this service's database. */
  biller?: Biller;
  /**
   * Who resolves bank account names in live mode (GET /tools/banks/resolve); none: live mode refuses with 403
   * bank-provider-not-configured. Test mode always uses the sandbox. Name enquiries share the biller timeout.
   */
  liveAccountNames?: AccountNameProvider;
  /** The test-mode bank rail payouts are sent to; default: the sandbox rail over this service's database. */
  bankRail?: BankRail;
  /** The live-mode bank rail; none: live payouts are refused with 403 bank-rail-not-configured. */
  liveBankRail?: BankRail;
  /**
   * Longest wait for one biller or bank rail call (lookup, pay, query, send); a pay or send that takes longer is asked
   * about again later.
   */
  billerTimeoutMs?: number;
  /** How long POST /payments/bill waits for the outcome before answering 202. */
  paymentWaitMs?: number;
  /** How long a customer unknown to the projection is waited for before a 404. */
  customerWaitMs?: number;
  /** Delays before asking the biller again about a pending / unanswered order (the last repeats). */
  billerRecheckMs?: number[];
  /** Delays before resending a ledger command that got no result (the last repeats). */
  ledgerResendMs?: number[];
  /** How often the payment worker looks for due payments when nobody woke it. */
  workerIdleMs?: number;
  /** The sandbox biller's timings (only when `biller` is not given), and the sandbox rail's (unless `bankRail` is). */
  sandbox?: Partial<SandboxBillerOptions>;
}

export const DEFAULTS = {
  billerTimeoutMs: 5_000,
  paymentWaitMs: 8_000,
  customerWaitMs: 3_000,
  billerRecheckMs: [5_000, 15_000, 30_000, 60_000],
  ledgerResendMs: [30_000, 60_000, 300_000],
  workerIdleMs: 1_000,
  sandboxPendingMs: 10_000,
} as const;

type Adapters = "biller" | "sandbox" | "liveAccountNames" | "bankRail" | "liveBankRail";
export type Settings = Required<Omit<BillServiceOptions, Adapters>> & {
  sandbox: SandboxBillerOptions;
};

export function settingsOf(opts: BillServiceOptions): Settings {
  const billerTimeoutMs = opts.billerTimeoutMs ?? DEFAULTS.billerTimeoutMs;
  return {
    billerTimeoutMs,
    paymentWaitMs: opts.paymentWaitMs ?? DEFAULTS.paymentWaitMs,
    customerWaitMs: opts.customerWaitMs ?? DEFAULTS.customerWaitMs,
    billerRecheckMs: opts.billerRecheckMs ?? [...DEFAULTS.billerRecheckMs],
    ledgerResendMs: opts.ledgerResendMs ?? [...DEFAULTS.ledgerResendMs],
    workerIdleMs: opts.workerIdleMs ?? DEFAULTS.workerIdleMs,
    sandbox: {
      pendingMs: opts.sandbox?.pendingMs ?? DEFAULTS.sandboxPendingMs,
      // A `2222` number must outlast the biller timeout.
      slowMs: opts.sandbox?.slowMs ?? billerTimeoutMs + 5_000,
    },
  };
}
