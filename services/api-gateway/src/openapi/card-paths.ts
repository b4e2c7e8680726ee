/**
 * The authorization engine's operations: card programs, cards, accounts, authorizations, transactions and the
 * test-mode simulation. Bodies are the zod schemas the engine validates; records are in records/cards.ts.
 */
import {
  accountRequestSchema,
  activateCardSchema,
  addDepositChannelSchema,
  cardRequestSchema,
  cardUpdateSchema,
  fundCardSchema,
  programRequestSchema,
  resetPinSchema,
  updateDepositChannelNameSchema,
} from "@cardhold/contracts";
import { cardLinkPaths, cardWithEnrollments } from "./card-link-paths";
import * as examples from "./examples";
import { list, read, write } from "./operations";
import { accountLogRecord, accountRecord, balanceRecord } from "./records/accounts";
import { authorizationRecord, transactionRecord } from "./records/authorizations";
import { cardRecord, cardSecretsRecord, programRecord } from "./records/cards";
import { error } from "./responses";
import type { Paths } from "./schema";
import { simulationPaths } from "./simulation-paths";

const state = (description?: string) => ({ "422": error("StateConflict", description) });
const referenceTaken = { "409": error("Conflict", "The reference is already used") };

function programPaths(): Paths {
  return {
    "/card-programs": {
      post: write("Create a card program (a virtual one is live at once)", programRequestSchema, programRecord, {
        status: "201",
        bodyExample: examples.programRequest,
        responses: { "404": error("NotFound", "Unknown settlementAccount or webhook") },
      }),
      get: list("List card programs", programRecord),
    },
    "/card-programs/{id}": {
      get: read("Retrieve a card program", programRecord),
      put: write("Replace a program's fields (not once it is live)", programRequestSchema, programRecord, {
        responses: state("The program is live"),
      }),
    },
  };
}

function cardPaths(): Paths {
  const cardState = state("Not allowed in the card's status (e.g. a terminated card)");
  return {
    "/cards": {
      post: write("Issue a card (inactive until activated)", cardRequestSchema, cardRecord, {
        status: "201",
        bodyExample: examples.cardRequest,
        example: { code: "success", data: examples.card },
        description:
          "With amount and debitSource the card is funded as by POST /cards/{id}/fund; a debitSource in another " +
          "currency than the card's needs fxHash (a quote from POST /tools/fx/quotes for this pair and amount).",
        responses: {
          ...referenceTaken,
          "404": error("NotFound", "Unknown program, customer, account or fxHash"),
          ...state(
            "The program is not live; debitCurrency is not debitSource's; insufficient funds in debitSource for " +
              "amount; across currencies, fxHash missing (fx-quote-required), used, expired or for another pair or amount",
          ),
        },
      }),
      get: list("List cards", cardRecord, ["program", "customer", "fundingSource"]),
    },
    "/cards/{id}": {
      get: read("Retrieve a card (never its PAN or CVV)", cardRecord, { schema: cardWithEnrollments }),
      put: write("Replace controls and/or metadata (metadata is replaced whole)", cardUpdateSchema, cardRecord, {
        responses: cardState,
      }),
      delete: write("Terminate the card for good", undefined, cardRecord, { responses: cardState }),
    },
    "/cards/{id}/activate": {
      post: write("Activate with the card's CVV and a new PIN", activateCardSchema, cardRecord, {
        responses: cardState,
      }),
    },
    "/cards/{id}/reset-pin": { post: write("Set a new PIN", resetPinSchema, cardRecord, { responses: cardState }) },
    "/cards/{id}/block": { post: write("Block an active card", undefined, cardRecord, { responses: cardState }) },
    "/cards/{id}/unblock": { post: write("Unblock a blocked card", undefined, cardRecord, { responses: cardState }) },
    "/cards/{id}/fund": {
      post: write(
        "Fund the card from debitSource; answers with the balance of the account the card spends from",
        fundCardSchema,
        balanceRecord,
        {
          description:
            "Moves amount from debitSource into the account the card spends from: its own account (card-account " +
            "programs) or its program's settlement account (settlement-account programs), shared by the program's " +
            "cards. A debitSource that is that account moves nothing but must hold the amount. POST /cards takes " +
            "amount and debitSource to the same effect. A debitSource in another currency than the card's (amount " +
            "is in the card's) needs fxHash, the hash of an unexpired, unused quote (POST /tools/fx/quotes) from " +
            "debitSource's currency to the card's for this amount: debitSource pays the quote's debitAmount.",
          responses: {
            "404": error("NotFound", "Unknown card, account or fxHash"),
            ...state(
              "Not allowed in the card's status; debitCurrency is not debitSource's; insufficient funds; across " +
                "currencies, fxHash missing (fx-quote-required), used, expired or for another pair or amount",
            ),
          },
        },
      ),
    },
    "/cards/{id}/funding-source": { get: read("The account the card spends from", accountRecord) },
    "/cards/{id}/funding-source/balance": { get: read("That account's balance", balanceRecord) },
    "/cards/{id}/secrets": {
      get: read("PAN, CVV and expiry (a restricted key needs the card-secrets permission)", cardSecretsRecord),
    },
  };
}

const CSV_COLUMNS = "id, createdAt, type, kind, amount, balanceAfter, currency, reference, description, movement";

function accountPaths(): Paths {
  return {
    "/accounts": {
      post: write("Open an account", accountRequestSchema, accountRecord, {
        status: "201",
        bodyExample: examples.accountRequest,
        responses: { ...referenceTaken, "404": error("NotFound", "Unknown customer or settlementAccount") },
      }),
      get: list("List accounts", accountRecord, ["customer", "settlementAccount"]),
    },
    "/accounts/{id}": { get: read("Retrieve an account", accountRecord) },
    "/accounts/{id}/deposit-channels": {
      post: write(
        "Add a deposit channel (a new 10-digit account number); answers the account",
        addDepositChannelSchema,
        accountRecord,
        {
          status: "201",
          bodyExample: { type: "bank-account" },
          responses: state("The account is not active, or has 5 deposit channels already"),
        },
      ),
    },
    "/accounts/{id}/deposit-channels/update-account-name": {
      put: write(
        "Name the channel numbered accountNumber after the account's customer (full name); answers the account",
        updateDepositChannelNameSchema,
        accountRecord,
        {
          bodyExample: { type: "bank-account", accountNumber: "0123456789" },
          responses: {
            "404": error("NotFound", "Unknown account, or no such channel on it"),
            ...state("The account has no customer"),
          },
        },
      ),
    },
    "/accounts/{id}/balance": { get: read("An account's balance", balanceRecord) },
    "/accounts/{id}/logs": {
      get: list(
        "An account's ledger entries (reference:<authorization id> selects one authorization's)",
        accountLogRecord,
      ),
    },
    "/accounts/{id}/logs/csv": {
      get: {
        summary: "All of an account's ledger entries as CSV, newest first",
        responses: {
          "200": {
            description: `CSV with a header row: ${CSV_COLUMNS}`,
            content: { "text/csv": { schema: { type: "string" } } },
          },
        },
      },
    },
  };
}

function authorizationPaths(): Paths {
  return {
    "/card-authorizations": {
      get: list("List card authorizations", authorizationRecord, ["card", "customer", "account", "program"]),
    },
    "/card-authorizations/{id}": { get: read("Retrieve a card authorization", authorizationRecord) },
    "/card-transactions": {
      get: list("List card transactions", transactionRecord, ["authorization", "card", "customer"]),
    },
    "/card-transactions/{id}": { get: read("Retrieve a card transaction", transactionRecord) },
  };
}

export function enginePaths(): Paths {
  return {
    ...programPaths(),
    ...cardPaths(),
    ...cardLinkPaths(),
    ...accountPaths(),
    ...authorizationPaths(),
    ...simulationPaths(),
  };
}
