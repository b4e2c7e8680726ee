/** Fees: a flat amount or a percentage, paid into an account; a card program names one as its transactionFee. */
import { feeRequestSchema } from "@cardhold/contracts";
import { list, read, write } from "./operations";
import { feeRecord } from "./records/fees";
import { error } from "./responses";
import type { Paths } from "./schema";

const AT = "2025-03-14T18:22:51.000Z";

const feeRequest = {
  name: "Card purchase fee",
  structure: "percentage",
  currency: "NGN",
  value: 1.5,
  cap: 100_000,
  account: "ac.2tVZhB4nQe8sWmRtu",
};

const fee = { id: "fee.2tVZhC8kRmP3xQwEy", object: "fee", ...feeRequest, metadata: {}, createdAt: AT, updatedAt: AT };

export function feePaths(): Paths {
  return {
    "/fees": {
      post: write("Create a fee", feeRequestSchema, feeRecord, {
        status: "201",
        description:
          "A flat fee charges its value (minor units); a percentage fee charges amount × value / 100, rounded half " +
          "up to a whole minor unit, at most cap. A fee cannot be changed once made.",
        bodyExample: feeRequest,
        example: { code: "success", data: fee },
        responses: {
          "404": error("NotFound", "Unknown account"),
          "422": error("StateConflict", "The account is in another currency, or is virtual (holds no money)"),
        },
      }),
      get: list("List fees", feeRecord, ["account"]),
    },
    "/fees/{id}": { get: read("Retrieve a fee", feeRecord) },
  };
}
