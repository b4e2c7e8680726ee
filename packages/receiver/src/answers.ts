import { z } from "zod";

/** The decline codes of the interface, plus the reference receiver's spending-control. */
export const DECLINE_CODES = [
  "account-not-found",
  "account-inactive",
  "insufficient-funds",
  "invalid-transaction",
  "duplicate-transaction",
  "spending-control",
] as const;
export type DeclineCode = (typeof DECLINE_CODES)[number];

export type AnswerMetadata = Record<string, string | number | boolean>;

export interface ApproveAnswer {
  action: "approve";
  /**
   * A partial approval: the amount approved (minor units), less than the one asked. Only for a capture request whose
   * authorization says partialApprovalAllowed; the platform then holds, debits and reports this amount.
   */
  amount?: number;
  cardBalance?: number;
  cardHolderName?: string;
  metadata?: AnswerMetadata;
}
export interface DeclineAnswer {
  action: "decline";
  code: DeclineCode;
  metadata?: AnswerMetadata;
}
export type AuthorizationAnswer = ApproveAnswer | DeclineAnswer;
/** A check can only be approved with an integer balance and a holder name (interface Rule 1). */
export type CheckAnswer = (ApproveAnswer & { cardBalance: number; cardHolderName: string }) | DeclineAnswer;

/** Thrown when an answer would not be valid for the platform; the receiver answers 500 and commits nothing. */
export class InvalidAnswer extends RangeError {
  override name = "InvalidAnswer";
}

const metadataSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));
/** The answer schemas are exported for the gateway's OpenAPI document, which shows them as the webhook answers. */
export const approveSchema = z.strictObject({
  action: z.literal("approve"),
  amount: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(
      "A partial approval: the amount approved, below the one asked; only where the request says partialApprovalAllowed",
    ),
  cardBalance: z.number().int().optional(),
  cardHolderName: z.string().min(1).optional(),
  metadata: metadataSchema.optional(),
});
export const declineSchema = z.strictObject({
  action: z.literal("decline"),
  code: z.enum(DECLINE_CODES),
  metadata: metadataSchema.optional(),
});
export const answerSchema = z.discriminatedUnion("action", [approveSchema, declineSchema]);
export const checkAnswerSchema = z.discriminatedUnion("action", [
  approveSchema.extend({ cardBalance: z.number().int(), cardHolderName: z.string().min(1) }),
  declineSchema,
]);

/** Returns `answer` when the platform accepts it for this kind of request; throws InvalidAnswer otherwise. */
export function validAnswer(answer: unknown, request: "check" | "other" = "other"): AuthorizationAnswer {
  const result = (request === "check" ? checkAnswerSchema : answerSchema).safeParse(answer);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => `${i.path.join(".") || "(answer)"}: ${i.message}`).join("; ");
  throw new InvalidAnswer(
    `invalid ${request === "check" ? "check " : ""}answer ${JSON.stringify(answer)}: ${problems}`,
  );
}

/**
 * Approve a capture, a closed event or an update. For a check use approveCheck. `{ amount }` approves a capture for
 * less than it asks (partial approval), where its request allows it (see fitsRequest).
 */
export function approve(extra: Omit<ApproveAnswer, "action"> = {}): ApproveAnswer {
  return validAnswer({ action: "approve", ...extra }) as ApproveAnswer;
}

/** What a decision event asks about: its amount, and whether the network allows approving less. */
export interface AskedAmount {
  amount: number;
  partialApprovalAllowed?: boolean;
}

/**
 * Returns `answer` when the amount it approves fits the request: none named, the amount asked, or less where the
 * request says partialApprovalAllowed. Throws InvalidAnswer otherwise: the platform would count the answer unusable
 * and let the timeout default (or the program's stand-in rules) decide.
 */
export function fitsRequest<A extends AuthorizationAnswer>(answer: A, asked: AskedAmount): A {
  if (answer.action !== "approve" || answer.amount === undefined || answer.amount === asked.amount) return answer;
  if (answer.amount > asked.amount)
    throw new InvalidAnswer(`approves ${answer.amount}, more than the ${asked.amount} asked`);
  if (!asked.partialApprovalAllowed)
    throw new InvalidAnswer(
      `approves ${answer.amount} of ${asked.amount}: this request does not allow partial approval`,
    );
  return answer;
}

/** Approve a check: an integer balance in minor units and a non-empty holder name are required. */
export function approveCheck(cardBalance: number, cardHolderName: string, metadata?: AnswerMetadata): CheckAnswer {
  if (!Number.isSafeInteger(cardBalance))
    throw new InvalidAnswer("cardBalance must be an integer number of minor units");
  if (!cardHolderName) throw new InvalidAnswer("cardHolderName must not be empty");
  return validAnswer(
    { action: "approve", cardBalance, cardHolderName, ...(metadata ? { metadata } : {}) },
    "check",
  ) as CheckAnswer;
}

export function decline(code: DeclineCode, metadata?: AnswerMetadata): DeclineAnswer {
  return validAnswer({ action: "decline", code, ...(metadata ? { metadata } : {}) }) as DeclineAnswer;
}
