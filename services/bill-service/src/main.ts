import { z } from "zod";
import { runServiceProcess } from "@cardhold/platform";
import { createService, NAME } from "./service";
import { DEFAULTS } from "./settings";

const ms = (fallback: number) => z.coerce.number().int().min(1).max(3_600_000).default(fallback);
/** Comma-separated delays in milliseconds, e.g. 5000,15000,60000 (the last repeats). */
const delays = (fallback: readonly number[]) =>
  z
    .string()
    .regex(/^\d+(,\d+)*$/, "must be comma-separated milliseconds, e.g. 5000,15000")
    .default(fallback.join(","))
    .transform((s) => s.split(",").map(Number));

await runServiceProcess({
  name: NAME,
  defaultPort: 8085,
  configShape: {
    BILL_BILLER_TIMEOUT_MS: ms(DEFAULTS.billerTimeoutMs),
    BILL_PAYMENT_WAIT_MS: ms(DEFAULTS.paymentWaitMs),
    BILL_CUSTOMER_WAIT_MS: ms(DEFAULTS.customerWaitMs),
    BILL_BILLER_RECHECK_MS: delays(DEFAULTS.billerRecheckMs),
    BILL_LEDGER_RESEND_MS: delays(DEFAULTS.ledgerResendMs),
    BILL_SANDBOX_PENDING_MS: ms(DEFAULTS.sandboxPendingMs),
  },
  create: (deps, config) =>
    createService(deps, {
      billerTimeoutMs: config.BILL_BILLER_TIMEOUT_MS,
      paymentWaitMs: config.BILL_PAYMENT_WAIT_MS,
      customerWaitMs: config.BILL_CUSTOMER_WAIT_MS,
      billerRecheckMs: config.BILL_BILLER_RECHECK_MS,
      ledgerResendMs: config.BILL_LEDGER_RESEND_MS,
      sandbox: { pendingMs: config.BILL_SANDBOX_PENDING_MS },
    }),
});
