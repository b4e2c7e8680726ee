import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  available,
  hold,
  LedgerError,
  MAX_BALANCE,
  post,
  release,
  transfer,
  type AccountRole,
  type Balance,
  type LedgerAccount,
} from "./ledger";

const account = (role: AccountRole, posted = 0, held = 0): LedgerAccount => ({ role, balance: { posted, held } });

describe("ledger rules", () => {
  it("a transfer is two entries that sum to zero", () => {
    expect(transfer("a", "b", 500)).toEqual([
      { account: "a", amount: -500 },
      { account: "b", amount: 500 },
    ]);
    for (const bad of [0, -5, 1.5, Number.MAX_SAFE_INTEGER + 2])
      expect(() => transfer("a", "b", bad)).toThrow(LedgerError);
  });

  it("holds reduce available, never below zero on a funded account", () => {
    const card = account("card", 1_000);
    const held = hold(card, 600);
    expect(held).toEqual({ posted: 1_000, held: 600 });
    expect(available(held)).toBe(400);
    expect(() => hold({ ...card, balance: held }, 401)).toThrow(/insufficient/);
    expect(release({ ...card, balance: held }, 600)).toEqual({ posted: 1_000, held: 0 });
    expect(() => release({ ...card, balance: held }, 601)).toThrow(/only 600 held/);
  });

  it("capturing a hold debits the account and releases the hold in one step", () => {
    const accounts = new Map([
      ["card", account("card", 1_000, 600)],
      ["network", account("network-clearing")],
    ]);
    const next = post(accounts, transfer("card", "network", 600), { account: "card", amount: 600 });
    expect(next.get("card")).toEqual({ posted: 400, held: 0 });
    expect(next.get("network")).toEqual({ posted: 600, held: 0 });
  });

  it("refuses unbalanced entries and overspending a funded account; clearing accounts may go negative", () => {
    const accounts = new Map([
      ["card", account("card", 100)],
      ["settlement", account("settlement", 0)],
      ["network", account("network-clearing")],
    ]);
    expect(() => post(accounts, [{ account: "card", amount: -5 }])).toThrow(/sum to zero/);
    expect(() => post(accounts, transfer("card", "network", 101))).toThrow(/insufficient/);
    expect(post(accounts, transfer("network", "settlement", 50)).get("network")).toEqual({ posted: -50, held: 0 });
  });

  it("under any sequence of movements the ledger sums to zero and no funded account goes below zero", () => {
    const ids = ["settlement", "card", "network", "external"];
    const roles: Record<string, AccountRole> = {
      settlement: "settlement",
      card: "card",
      network: "network-clearing",
      external: "external",
    };
    const op = fc.record({
      kind: fc.constantFrom("transfer", "hold", "release", "capture"),
      from: fc.constantFrom(...ids),
      to: fc.constantFrom(...ids),
      amount: fc.integer({ min: 1, max: 5_000 }),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const balances = new Map<string, Balance>(ids.map((id) => [id, { posted: 0, held: 0 }]));
        const accounts = () => new Map(ids.map((id) => [id, { role: roles[id]!, balance: balances.get(id)! }]));
        for (const o of ops) {
          try {
            if (o.kind === "hold") balances.set(o.from, hold(accounts().get(o.from)!, o.amount));
            else if (o.kind === "release") balances.set(o.from, release(accounts().get(o.from)!, o.amount));
            else if (o.from !== o.to) {
              const releasing = o.kind === "capture" ? { account: o.from, amount: o.amount } : null;
              for (const [id, b] of post(accounts(), transfer(o.from, o.to, o.amount), releasing)) balances.set(id, b);
            }
          } catch (error) {
            if (!(error instanceof LedgerError)) throw error;
          }
          const total = [...balances.values()].reduce((sum, b) => sum + b.posted, 0);
          if (total !== 0) return false;
          for (const id of ["settlement", "card"])
            if (available(balances.get(id)!) < 0 || balances.get(id)!.held < 0) return false;
        }
        return true;
      }),
      { numRuns: 1_000 },
    );
  });
});

describe("the balance limit", () => {
  it("refuses a credit that would take a funded account past it, not a clearing account", () => {
    const accounts = new Map<string, LedgerAccount>([
      ["main", { role: "customer" as AccountRole, balance: { posted: MAX_BALANCE - 1, held: 0 } }],
      ["clearing", { role: "network-clearing" as AccountRole, balance: { posted: 0, held: 0 } }],
    ]);
    expect(post(accounts, transfer("clearing", "main", 1)).get("main")!.posted).toBe(MAX_BALANCE);
    expect(() => post(accounts, transfer("clearing", "main", 2))).toThrow(
      expect.objectContaining({ code: "balance-limit" }),
    );
  });
});
