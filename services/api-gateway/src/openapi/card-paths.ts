/**
 * OpenAPI 3.1 path items of the authorization engine: card programs, cards, accounts, authorizations, transactions
 * and the test-mode simulation. Request bodies come from the shared zod schemas; records are described here and
 * mirror services/authorization-engine/src/records.ts.
 */
import { z } from "zod";
import {
  accountRequestSchema, activateCardSchema, cardRequestSchema, cardUpdateSchema, fundCardSchema, programRequestSchema, resetPinSchema,
  simulateCaptureSchema, simulateCheckSchema, simulatePayInSchema, simulateReverseSchema, simulateUpdateSchema,
} from "@cardhold/contracts";

type Json = Record<string, unknown>;

const input = (schema: z.ZodType) => z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Json;
const jsonBody = (schema: Json) => ({ required: true, content: { "application/json": { schema } } });
const jsonResponse = (description: string, schema: Json) => ({ description, content: { "application/json": { schema } } });
const success = (data: Json) => ({ type: "object", required: ["code", "data"], properties: { code: { const: "success" }, data } });
const list = (item: Json) => ({
  type: "object",
  properties: { code: { const: "success" }, data: { type: "array", items: item }, metadata: { type: "object", properties: { hasMore: { type: "boolean" }, totalCount: { type: "integer" } } } },
});
const error = (description: string) => ({ description, content: { "application/json": { schema: { type: "object", properties: { statusCode: { type: "integer" }, code: { type: "string" }, message: { type: "string" }, errors: { type: "array" } } } } } });
const idParameter = { name: "id", in: "path", required: true, schema: { type: "string" } };
const listParameters = (expand: string) =>
  ["limit", "sort", "select", "expand", "filter", "or", "nor", "and", "before", "after", "countTotal"].map((name) => ({
    name, in: "query", required: false, schema: { type: "string" }, description: name === "expand" ? `Expandable: ${expand}` : "See the list query language",
  }));

const str = { type: "string" };
const int = { type: "integer" };
const time = { type: "string", format: "date-time" };
const networkData = { type: "object", properties: Object.fromEntries(["network", "reference", "rrn", "stan", "txnReference", "cardAcceptorNameLocation", "terminalId"].map((k) => [k, str])) };

const program = { type: "object", properties: {
  id: str, object: { const: "card.program" }, name: str, description: str, network: { enum: ["verve", "mastercard"] }, type: { enum: ["virtual", "physical"] },
  quantity: int, currency: { enum: ["NGN", "USD"] }, status: { enum: ["new", "live"] }, metadata: { type: "object" }, createdAt: time, updatedAt: time,
  authorization: { type: "object", properties: { fundingSourceType: { enum: ["card-account", "settlement-account"] }, settlementAccount: str, transactionFee: int, webhook: str, timeoutDefault: { enum: ["approve", "decline"] } } },
} };
const card = { type: "object", properties: {
  id: str, object: { const: "card" }, type: str, network: str, status: { enum: ["inactive", "active", "blocked", "terminated"] }, currency: str, customer: str,
  program: str, reference: str, fundingSource: str, controls: { type: "object" }, metadata: { type: "object" }, createdAt: time, updatedAt: time,
  details: { type: "object", properties: { last4: str, expiry: { type: "string", description: "MM/YY" }, cardHolderName: str } },
} };
const account = { type: "object", properties: {
  id: str, object: { const: "account" }, name: str, type: { enum: ["main", "sub", "virtual"] }, currency: str, status: str, customer: str, reference: str,
  settlementAccount: str, isDefault: { type: "boolean", description: "The business's default (settlement) account in its currency" },
  depositChannels: { type: "array", items: { type: "object", properties: { type: str, accountName: str, accountNumber: str, bankName: str, bankCode: str, partner: str } } },
  metadata: { type: "object" }, createdAt: time, updatedAt: time,
} };
const balance = { type: "object", properties: { object: { const: "balance" }, account: str, currency: str, available: { ...int, description: "ledger − held" }, ledger: int, held: int } };
const authorization = { type: "object", properties: {
  id: str, object: { const: "card.authorization" }, card: str, customer: str, account: str, type: { enum: ["check", "capture"] },
  status: { enum: ["pending", "approved", "declined", "reversed"] }, amount: int, fees: int, currency: str, channel: str, mcc: str, merchant: str,
  decisionType: { enum: ["direct-response", "system-response"] }, statusReason: str, declineReason: str, reserved: { type: "boolean" },
  cardBalance: int, cardHolderName: str, networkData, metadata: { type: "object" }, createdAt: time, updatedAt: time,
} };
const transaction = { type: "object", properties: {
  id: str, object: { const: "card.transaction" }, authorization: str, source: str, card: str, customer: str, type: { enum: ["capture", "adjustment", "reversal"] },
  channel: str, currency: str, amount: { ...int, description: "negative for a debit" }, fees: int, mcc: str, networkData, createdAt: time,
} };
const logEntry = { type: "object", properties: {
  id: str, object: { const: "account.log" }, account: str, movement: str, type: { enum: ["debit", "credit"] }, kind: str, amount: int, balanceAfter: int,
  currency: str, reference: str, description: str, createdAt: time,
} };

const common = { "400": error("Invalid input; `errors` lists every bad field"), "401": error("Missing or invalid secret key") };
const missing = { "404": error("Unknown id (also another business's)") };
const state = { "422": error("Not allowed in the resource's current state") };
const post = (summary: string, body: z.ZodType | undefined, response: Json, status = "200", extra: Json = {}) => ({
  post: { summary, ...(body && { requestBody: jsonBody(input(body)) }), responses: { [status]: jsonResponse(summary, success(response)), ...common, ...missing, ...state, ...extra } },
});
const get = (summary: string, response: Json) => ({ get: { summary, parameters: [idParameter], responses: { "200": jsonResponse(summary, success(response)), ...missing } } });
const listing = (summary: string, item: Json, expand: string) => ({ summary, parameters: listParameters(expand), responses: { "200": jsonResponse(summary, list(item)), ...common } });

function simulationPaths(): Json {
  const decided = (summary: string, body: z.ZodType) => ({
    ...post(summary, body, authorization, "200", { "403": error("A live key: simulation takes test keys only"), "422": error("Dropped (card, customer or account inactive): no authorization was created; or not allowed in the authorization's state") }),
  });
  return {
    "/simulation/cards/{id}/request-authorization/check": decided("A balance inquiry (check) from the network; answers once decided", simulateCheckSchema),
    "/simulation/cards/{id}/request-authorization/capture": decided("A purchase (capture) from the network; answers once decided", simulateCaptureSchema),
    "/simulation/cards/{id}/request-authorization/update-capture": decided("An amount change on an approved capture (a new one first, unless `authorization` names one)", simulateUpdateSchema),
    "/simulation/cards/{id}/request-authorization/reverse-capture": decided("A reversal of an approved capture (a new one first, unless `authorization` names one)", simulateReverseSchema),
    "/simulation/card-programs/{id}/go-live": post("A physical program goes live", z.object({}), program),
    "/simulation/payments/pay-in": post("Money arrives at an account's deposit channel (a virtual account's lands in its settlement account)", simulatePayInSchema, account),
  };
}

export function cardPaths(): Json {
  return {
    "/card-programs": { post: post("Create a card program (virtual: live at once)", programRequestSchema, program, "201").post, get: listing("List card programs", program, "none") },
    "/card-programs/{id}": { ...get("Retrieve a card program", program), put: { summary: "Replace a program's fields (not once live)", parameters: [idParameter], requestBody: jsonBody(input(programRequestSchema)), responses: { "200": jsonResponse("The program", success(program)), ...common, ...missing, ...state } } },
    "/cards": { post: post("Issue a card (inactive until activated)", cardRequestSchema, card, "201", { "409": error("Reference already used") }).post, get: listing("List cards", card, "program, customer, fundingSource") },
    "/cards/{id}": {
      ...get("Retrieve a card (never its PAN or CVV)", card),
      put: { summary: "Replace controls and/or metadata", parameters: [idParameter], requestBody: jsonBody(input(cardUpdateSchema)), responses: { "200": jsonResponse("The card", success(card)), ...common, ...missing, ...state } },
      delete: { summary: "Terminate the card for good", parameters: [idParameter], responses: { "200": jsonResponse("The card", success(card)), ...missing, ...state } },
    },
    "/cards/{id}/activate": post("Activate with the card's CVV and a new PIN", activateCardSchema, card),
    "/cards/{id}/reset-pin": post("Set a new PIN", resetPinSchema, card),
    "/cards/{id}/block": post("Block an active card", undefined, card),
    "/cards/{id}/unblock": post("Unblock a blocked card", undefined, card),
    "/cards/{id}/fund": post("Move money into a card-account card's own account", fundCardSchema, balance),
    "/cards/{id}/funding-source": get("The account the card spends from", account),
    "/cards/{id}/funding-source/balance": get("That account's balance", balance),
    "/cards/{id}/secrets": get("PAN, CVV and expiry (never logged; sealed at rest)", { type: "object", properties: { cardHolderName: str, last4: str, pan: str, expiry: str, cvv: str } }),
    "/accounts": { post: post("Open an account", accountRequestSchema, account, "201", { "409": error("Reference already used") }).post, get: listing("List accounts", account, "customer, settlementAccount") },
    "/accounts/{id}": get("Retrieve an account", account),
    "/accounts/{id}/balance": get("An account's balance", balance),
    "/accounts/{id}/logs": { get: { ...listing("An account's ledger entries, newest first", logEntry, "none"), parameters: [idParameter, ...listParameters("none")] } },
    "/accounts/{id}/logs/csv": { get: { summary: "All of an account's ledger entries as CSV, newest first", parameters: [idParameter], responses: { "200": { description: "text/csv: id, createdAt, type, kind, amount, balanceAfter, currency, reference, description, movement" }, ...missing } } },
    "/card-authorizations": { get: listing("List card authorizations", authorization, "card, customer, account, program") },
    "/card-authorizations/{id}": get("Retrieve a card authorization", authorization),
    "/card-transactions": { get: listing("List card transactions", transaction, "authorization, card, customer") },
    "/card-transactions/{id}": get("Retrieve a card transaction", transaction),
    ...simulationPaths(),
  };
}
