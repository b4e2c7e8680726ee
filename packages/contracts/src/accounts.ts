import { z } from "zod";

/** The kinds of deposit channel an account can have; `bank-account` is the only one. */
export const DEPOSIT_CHANNEL_TYPES = ["bank-account"] as const;
const depositChannelType = z.enum(DEPOSIT_CHANNEL_TYPES).default("bank-account");

/** POST /accounts/:id/deposit-channels: adds a channel of this type (a new 10-digit account number). */
export const addDepositChannelSchema = z.object({ type: depositChannelType });

/** PUT /accounts/:id/deposit-channels/update-account-name: `accountNumber` picks the channel. */
export const updateDepositChannelNameSchema = z.object({
  type: depositChannelType,
  accountNumber: z.string().regex(/^\d{10}$/, "must be a 10-digit account number"),
});
