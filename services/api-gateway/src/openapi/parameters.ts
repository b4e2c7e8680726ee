/** Path and query parameters: the list query language's (packages/query) and each path template's own. */
import { ID_PREFIXES } from "@cardhold/platform";
import { DEFAULT_LIMIT, DEFAULT_MAX_LIMIT, LIST_PARAMETERS, MAX_PAGE_OFFSET } from "@cardhold/query";
import { BILLING_ID_PREFIX } from "../domain/billing";
import type { Json } from "./schema";

type ListParameter = (typeof LIST_PARAMETERS)[number];

export const query = (name: string, description: string, schema: Json = { type: "string" }): Json => ({
  name,
  in: "query",
  required: false,
  description,
  schema,
});

const LIST_DESCRIPTIONS: Record<Exclude<ListParameter, "limit" | "countTotal" | "expand" | "page">, string> = {
  filter:
    "Space-separated expressions, `field|op|value` or a shorthand (`field:value`, `field>N`, `field~text`, `-field:value` …).",
  or: "Expressions combined with OR.",
  nor: "Expressions combined with NOR.",
  and: "Expressions combined with AND.",
  select: "Space-separated fields to include, or `-field`s to exclude (depth 1); id and object are always kept.",
  sort: "Space-separated fields; a `-` prefix sorts descending. Default: newest first.",
  before: "An item's id: the page before it.",
  after: "An item's id, normally the last of the previous page: the page after it.",
};

export const countTotal: Json = {
  ...query(
    "countTotal",
    "Also count every match into metadata.totalCount; the bare flag (`&countTotal`) counts as true.",
    { type: "boolean", default: false },
  ),
  allowEmptyValue: true,
};

/** The list parameters of one list; `expandable` names its relations (`expand` is left out when it has none). */
export function listParameters(expandable: string[] = []): Json[] {
  return LIST_PARAMETERS.filter((name) => name !== "expand" || expandable.length > 0).map((name) => {
    if (name === "limit")
      return query(name, "Page size.", {
        type: "integer",
        minimum: 1,
        maximum: DEFAULT_MAX_LIMIT,
        default: DEFAULT_LIMIT,
      });
    if (name === "countTotal") return countTotal;
    if (name === "page")
      return query(
        name,
        `The page from 0, of \`limit\` items (the original interface's paging): it skips page × limit items, up to ${MAX_PAGE_OFFSET}; not with before or after, which page on at any depth and stay exact while items are added.`,
        { type: "integer", minimum: 0, default: 0 },
      );
    if (name === "expand")
      return query(
        name,
        `Space-separated relations whose ids become their records (depth 2; \`path:f1,f2\` selects fields): ${expandable.join(", ")}. The schemas show the ids.`,
      );
    return query(name, LIST_DESCRIPTIONS[name]);
  });
}

/** The id prefix and name of what a path segment holds (`/cards/{id}` holds a card id). */
const ID_OF_SEGMENT: Record<string, [string, string]> = {
  customers: [ID_PREFIXES.customer, "customer"],
  webhooks: [ID_PREFIXES.webhook, "webhook"],
  events: [ID_PREFIXES.event, "event"],
  "card-programs": [ID_PREFIXES.cardProgram, "card program"],
  cards: [ID_PREFIXES.card, "card"],
  accounts: [ID_PREFIXES.account, "account"],
  "card-authorizations": [ID_PREFIXES.authorization, "card authorization"],
  "card-transactions": [ID_PREFIXES.transaction, "card transaction"],
  payments: [ID_PREFIXES.payment, "payment"],
  products: [ID_PREFIXES.billProduct, "bill product"],
  businesses: [ID_PREFIXES.business, "business"],
  keys: [ID_PREFIXES.apiKey, "API key"],
  requests: [ID_PREFIXES.request, "request"],
  billings: [BILLING_ID_PREFIX, "billing"],
  fees: [ID_PREFIXES.fee, "fee"],
  merchants: [ID_PREFIXES.merchant, "merchant"],
  disputes: [ID_PREFIXES.dispute, "dispute"],
  "payment-requests": [ID_PREFIXES.paymentRequest, "payment request"],
};

/** Path parameters that are not ids: their own words. */
const NAMED_PARAMETERS: Record<string, string> = {
  accountNumber: "A 10-digit account number (NUBAN)",
};

/** Every `{name}` of a path template, declared as a required path parameter described by the segment before it. */
export function pathParameters(path: string): Json[] {
  const segments = path.split("/");
  return segments.flatMap((segment, i) => {
    const name = /^\{(\w+)\}$/.exec(segment)?.[1];
    if (!name) return [];
    const [prefix, what] = ID_OF_SEGMENT[segments[i - 1] ?? ""] ?? ["", "resource"];
    const description = NAMED_PARAMETERS[name] ?? (prefix ? `The ${what}'s id (\`${prefix}…\`)` : `The ${what}'s id`);
    return [{ name, in: "path", required: true, description, schema: { type: "string" } }];
  });
}
