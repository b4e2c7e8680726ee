import type { Bus, IncomingMessage, OutgoingMessage } from "@cardhold/bus";
import {
  ledgerCommandMessage,
  TOPICS,
  type Currency,
  type LedgerCommandMessage,
  type LedgerFailure,
  type LedgerResultMessage,
  type Mode,
} from "@cardhold/contracts";
import { newId } from "@cardhold/platform";

interface Account {
  id: string;
  businessId: string;
  mode: Mode;
  currency: Currency;
  balance: number;
  status: "active" | "inactive";
}

interface Debit {
  reference: string;
  account: string;
  amount: number;
  refunded: boolean;
}

/**
 * Stands in for the authorization engine's ledger: consumes ledger-commands.v1 and answers on ledger-results.v1 with
 * real balances. Idempotent by commandId: a command seen before gets its first result again and moves nothing.
 */
export class FakeLedger {
  /** Every command received, resends included. */
  readonly received: LedgerCommandMessage[] = [];
  private readonly accounts = new Map<string, Account>();
  private readonly defaults = new Map<string, string>();
  private readonly results = new Map<string, LedgerResultMessage>();
  private readonly debits = new Map<string, Debit>();
  private bus: Bus | undefined;
  private held: OutgoingMessage[] | undefined;
  private dropping = false;

  openAccount(
    businessId: string,
    mode: Mode,
    currency: Currency,
    balance: number,
    opts: { isDefault?: boolean; status?: Account["status"] } = {},
  ): string {
    const id = newId("account");
    this.accounts.set(id, { id, businessId, mode, currency, balance, status: opts.status ?? "active" });
    if (opts.isDefault ?? true) this.defaults.set(`${businessId}:${mode}:${currency}`, id);
    return id;
  }

  balance(account: string): number {
    return this.accounts.get(account)!.balance;
  }

  /** Debits that took money for this reference (a payment id). */
  debitsFor(reference: string): number {
    return [...this.debits.values()].filter((d) => d.reference === reference).length;
  }

  commandsFor(reference: string): LedgerCommandMessage[] {
    return this.received.filter((c) => c.data.reference === reference);
  }

  /** Keeps results back (money still moves) until release(). */
  hold(): void {
    this.held = [];
  }

  async release(): Promise<void> {
    const held = this.held ?? [];
    this.held = undefined;
    await this.bus!.publish(held);
  }

  /** Loses every result from now on (money still moves), as if the answer never reached the bill-service. */
  dropResults(drop: boolean): void {
    this.dropping = drop;
  }

  /** Consumes commands from this bus (a new bus after a restart; the balances stay). */
  async attach(bus: Bus): Promise<void> {
    this.bus = bus;
    await bus.subscribe({ group: "fake-ledger", topics: [TOPICS.ledgerCommands], handler: (m) => this.handle(m) });
  }

  private async handle(message: IncomingMessage): Promise<void> {
    const command = ledgerCommandMessage.parse(message.value);
    this.received.push(command);
    let result = this.results.get(command.data.commandId);
    if (!result) {
      result = command.type === "ledger.debit" ? this.debit(command) : this.refund(command);
      this.results.set(command.data.commandId, result);
    }
    const out: OutgoingMessage = { topic: TOPICS.ledgerResults, key: command.data.reference, value: result };
    if (this.dropping) return;
    if (this.held) this.held.push(out);
    else await this.bus!.publish([out]);
  }

  private answer(
    command: LedgerCommandMessage,
    outcome: Partial<LedgerResultMessage["data"]> & Pick<LedgerResultMessage["data"], "status" | "amount">,
  ): LedgerResultMessage {
    return {
      type: "ledger.result",
      businessId: command.businessId,
      mode: command.mode,
      occurredAt: new Date().toISOString(),
      data: {
        commandId: command.data.commandId,
        command: command.type,
        failureReason: null,
        account: null,
        currency: null,
        availableAfter: null,
        ...outcome,
      },
    };
  }

  private failed(command: LedgerCommandMessage, reason: LedgerFailure, amount: number, account: Account | null = null) {
    return this.answer(command, {
      status: "failed",
      failureReason: reason,
      amount,
      account: account?.id ?? null,
      currency: account?.currency ?? null,
    });
  }

  private debit(command: Extract<LedgerCommandMessage, { type: "ledger.debit" }>): LedgerResultMessage {
    const { businessId, mode, data } = command;
    const id = data.account ?? this.defaults.get(`${businessId}:${mode}:${data.currency}`);
    const account = id ? this.accounts.get(id) : undefined;
    if (!account || account.businessId !== businessId || account.mode !== mode)
      return this.failed(command, "account-not-found", data.amount);
    if (account.status !== "active") return this.failed(command, "account-inactive", data.amount, account);
    if (account.currency !== data.currency) return this.failed(command, "currency-mismatch", data.amount, account);
    if (account.balance < data.amount) return this.failed(command, "insufficient-funds", data.amount, account);
    account.balance -= data.amount;
    this.debits.set(data.commandId, {
      reference: data.reference,
      account: account.id,
      amount: data.amount,
      refunded: false,
    });
    return this.answer(command, {
      status: "succeeded",
      amount: data.amount,
      account: account.id,
      currency: account.currency,
      availableAfter: account.balance,
    });
  }

  private refund(command: Extract<LedgerCommandMessage, { type: "ledger.refund" }>): LedgerResultMessage {
    const debit = this.debits.get(command.data.debitCommandId);
    if (!debit || debit.refunded) return this.failed(command, "debit-not-found", 0);
    const account = this.accounts.get(debit.account)!;
    debit.refunded = true;
    account.balance += debit.amount;
    return this.answer(command, {
      status: "succeeded",
      amount: debit.amount,
      account: account.id,
      currency: account.currency,
      availableAfter: account.balance,
    });
  }
}
