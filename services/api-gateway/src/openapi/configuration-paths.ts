/** Configuration (the bill-service's src/configuration): the payment defaults later requests take. */
import { paymentConfigurationRequestSchema } from "@cardhold/contracts";
import { read, write } from "./operations";
import { configurationRecord } from "./records/configuration";
import { error } from "./responses";
import type { Paths } from "./schema";

const configurationRequest = {
  payInAccount: "ac.2tVZhB4nQe8sWmRtu",
  payOutAccount: "ac.2tVZhB7pLx3cNdKqa",
  fees: { bankTransfer: "fee.2tVZhC8kRmP3xQwEy", billPayment: "fee.2tVZhC9sTnQ4yRxFz" },
};

const configuration = { object: "configuration", payment: configurationRequest };

export function configurationPaths(): Paths {
  return {
    "/tools/configuration": {
      get: read("Retrieve the payment configuration", configurationRecord, {
        example: { code: "success", data: configuration },
      }),
    },
    "/tools/configuration/payment": {
      put: write("Set payment defaults", paymentConfigurationRequestSchema, configurationRecord, {
        description:
          "A field left out keeps its value; null clears it; unknown fields are refused. fees.billPayment is charged " +
          "on later bill payments in the fee's currency (flat, or a percentage of the amount rounded half up and " +
          "limited to its cap) instead of the product's fee, and their feeBreakdown names it; fees.bankTransfer so " +
          "on later payouts that name no fee. payOutAccount is debited by later bill payments and payouts that name " +
          "no debitSource. payInAccount is recorded only. Account ids are checked for their form: an account that " +
          "is not the business's fails the payment " +
          "that uses it (account-not-found).",
        bodyExample: configurationRequest,
        example: { code: "success", data: configuration },
        responses: { "404": error("NotFound", "A fee id that names no fee of the business in this mode") },
      }),
    },
  };
}
