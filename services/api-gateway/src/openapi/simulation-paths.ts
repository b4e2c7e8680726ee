/** Test mode's stand-ins for the card network and the bank (services/authorization-engine, authorizations.routes.ts). */
import type { z } from "zod";
import {
  simulateCaptureSchema,
  simulateCheckSchema,
  simulatePayInSchema,
  simulateReverseSchema,
  simulateUpdateSchema,
} from "@cardhold/contracts";
import { approvedCapture, captureRequest } from "./examples";
import { write, type OperationSpec } from "./operations";
import { creditedAccountRecord } from "./records/accounts";
import { authorizationRecord } from "./records/authorizations";
import { programRecord } from "./records/cards";
import { error } from "./responses";
import type { Paths } from "./schema";

const testKeysOnly = {
  "403": error(
    "Forbidden",
    "A live key: simulation takes test keys (sk.test.…) only; or a restricted key without write",
  ),
};

const DECIDED =
  "Answers once the authorization is decided: by your webhook's answer to the decision event, or by the timeout default " +
  "(a capture with stand-in rules, the program's or else the webhook's: by the rules) when no usable answer comes within 4 seconds. A request sent again with the same `reference` is the same authorization.";

function networkRequest(summary: string, body: z.ZodType, extra: Partial<OperationSpec> = {}): Paths[string] {
  return {
    post: write(summary, body, authorizationRecord, {
      description: DECIDED,
      ...extra,
      responses: {
        ...testKeysOnly,
        "422": error(
          "StateConflict",
          "Dropped (card, customer or account inactive): no authorization was created; or not allowed in the authorization's state",
        ),
        "503": error("ServerError", "platform-overloaded: refused before anything was created or held; send it again"),
      },
    }),
  };
}

export function simulationPaths(): Paths {
  const base = "/simulation/cards/{id}/request-authorization";
  return {
    [`${base}/check`]: networkRequest("A balance and name inquiry (check) from the network", simulateCheckSchema),
    [`${base}/capture`]: networkRequest("A purchase (capture) from the network", simulateCaptureSchema, {
      bodyExample: captureRequest,
      example: { code: "success", data: approvedCapture },
      description: `${DECIDED} With partialApprovalAllowed true the answer may approve less than amount (a partial approval).`,
    }),
    [`${base}/update-capture`]: networkRequest(
      "An amount change on an approved capture (a new capture first, unless `authorization` names one)",
      simulateUpdateSchema,
    ),
    [`${base}/reverse-capture`]: networkRequest(
      "A reversal of an approved capture (a new capture first, unless `authorization` names one)",
      simulateReverseSchema,
    ),
    "/simulation/card-programs/{id}/go-live": {
      post: write("A physical program goes live", undefined, programRecord, { responses: testKeysOnly }),
    },
    "/simulation/payments/pay-in": {
      post: write(
        "Money arrives at an account's deposit channel (a virtual account's lands in its settlement account; a payment " +
          "request's account takes the exact amount once and sends anything else back to the payer)",
        simulatePayInSchema,
        creditedAccountRecord,
        {
          responses: {
            ...testKeysOnly,
            "404": error("NotFound", "No account with that number"),
            "422": error("StateConflict", "The account is not active"),
          },
        },
      ),
    },
  };
}
