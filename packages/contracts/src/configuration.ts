import { z } from "zod";
import { accountId, feeId } from "./cards";

/**
 * Request body of `PUT /tools/configuration/payment` (compatibility notes, "Tools" → Configuration): the defaults
 * later requests take. A field left out keeps its value; null clears it. Unknown fields are refused, so a misspelt
 * default is not silently ignored.
 */
export const paymentConfigurationRequestSchema = z.strictObject({
  payInAccount: accountId.nullable().optional().describe("The account pay-ins are credited to by default"),
  payOutAccount: accountId
    .nullable()
    .optional()
    .describe("The account payments out are debited from when they name no debitSource"),
  fees: z
    .strictObject({
      bankTransfer: feeId.nullable().optional().describe("The fee charged on bank transfers (payouts)"),
      billPayment: feeId.nullable().optional().describe("The fee charged on bill payments, instead of the product's"),
    })
    .optional(),
});
export type PaymentConfigurationRequest = z.output<typeof paymentConfigurationRequestSchema>;
