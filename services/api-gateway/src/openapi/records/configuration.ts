/** The configuration record, as the bill-service's src/configuration/configuration-record.ts writes it. */
import { z } from "zod";
import { named } from "../schema";
import { idOf } from "./common";

export const configurationRecord = named(
  "Configuration",
  z.object({
    object: z.literal("configuration"),
    payment: z.object({
      payInAccount: idOf("ac.", "The account pay-ins are credited to by default; recorded only").nullable(),
      payOutAccount: idOf(
        "ac.",
        "The account a bill payment is debited from when it names no debitSource (else the main account)",
      ).nullable(),
      fees: z.object({
        bankTransfer: idOf("fee.", "The fee for bank transfers; recorded only").nullable(),
        billPayment: idOf(
          "fee.",
          "The fee charged on bill payments in its currency, instead of the product's own fee",
        ).nullable(),
      }),
    }),
  }),
  "A business's payment defaults in one mode; null where none is set",
);
