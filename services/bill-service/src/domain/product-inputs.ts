import type { FieldProblem } from "@cardhold/platform";
import type { BillProduct, InputSpec } from "./bill-product";

/** A bill request's inputs checked against its product: what to charge and which account the biller serves. */
export interface CheckedInputs {
  /** The bill amount (the product's price, or the amount input), minor units. */
  amount: number;
  fee: number;
  /** amount + fee: what the ledger debits. */
  total: number;
  /** The value of the product's account input (phone, meter, smartcard number). */
  accountNumber: string;
  /** Every input as a string (amounts as digits), trimmed. */
  inputs: Record<string, string>;
}

export type InputCheck = { ok: true; value: CheckedInputs } | { ok: false; problems: FieldProblem[] };

const DIGITS = /^\d{1,16}$/;

/** Minor units from a JSON number or a string of digits; undefined when it is neither a whole number nor in range. */
export function parseMinorUnits(value: unknown): number | undefined {
  const n =
    typeof value === "number"
      ? value
      : typeof value === "string" && DIGITS.test(value.trim())
        ? Number(value.trim())
        : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === "string" && value.trim() === "");

/** The problem with one input's value, or the normalised value. */
function checkInput(spec: InputSpec, value: unknown): { problem: string } | { value: string; amount?: number } {
  if (spec.type === "amount") {
    const amount = parseMinorUnits(value);
    if (amount === undefined) return { problem: "must be a whole number of minor units (e.g. 150000 for ₦1,500.00)" };
    if (amount < spec.minAmount || amount > spec.maxAmount) {
      return { problem: `must be between ${spec.minAmount} and ${spec.maxAmount} (minor units)` };
    }
    return { value: String(amount), amount };
  }
  if (typeof value !== "string") return { problem: "must be a string" };
  const text = value.trim();
  if (!new RegExp(spec.pattern).test(text)) return { problem: `must match ${spec.pattern}, e.g. ${spec.example}` };
  return { value: text };
}

/** Checks every input at once, so a 400 lists all of them; unknown inputs are refused too. */
export function checkInputs(product: BillProduct, given: Record<string, unknown>): InputCheck {
  const problems: FieldProblem[] = [];
  const inputs: Record<string, string> = {};
  let amount = product.price;
  for (const spec of product.inputs) {
    const path = `inputs.${spec.name}`;
    const value = given[spec.name];
    if (isBlank(value)) {
      if (spec.required) problems.push({ path, message: "is required" });
      continue;
    }
    const result = checkInput(spec, value);
    if ("problem" in result) {
      problems.push({ path, message: result.problem });
      continue;
    }
    inputs[spec.name] = result.value;
    if (result.amount !== undefined) amount = result.amount;
  }
  const known = new Set(product.inputs.map((s) => s.name));
  for (const name of Object.keys(given)) {
    if (!known.has(name)) {
      const why = name === "amount" && product.price !== null ? ": the product has a fixed price" : "";
      problems.push({ path: `inputs.${name}`, message: `is not an input of ${product.name}${why}` });
    }
  }
  if (problems.length > 0 || amount === null) return { ok: false, problems };
  const fee = product.fee.amount;
  return {
    ok: true,
    value: { amount, fee, total: amount + fee, accountNumber: inputs[product.accountInput] ?? "", inputs },
  };
}
