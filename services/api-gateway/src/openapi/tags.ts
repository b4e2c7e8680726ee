/** One tag per resource; an operation's tag follows from its path's first segment (as the gateway routes it). */
export const TAGS = [
  { name: "Customers", description: "The individuals and businesses you issue cards to and pay bills for." },
  {
    name: "Card programs",
    description: "A network, currency and card type, and how its cards' authorizations are funded and decided.",
  },
  {
    name: "Cards",
    description: "Virtual and physical cards: issue, activate, block, fund, set spending controls, read their secrets.",
  },
  {
    name: "Accounts",
    description: "Accounts hold money in a double-entry ledger: balances, deposit channels and every entry.",
  },
  {
    name: "Card authorizations",
    description: "Each request of the card network, and how it was decided: by your webhook or by the platform.",
  },
  {
    name: "Card transactions",
    description: "The money that moved for an authorization: captures, adjustments, reversals.",
  },
  { name: "Fees", description: "Fees charged on card captures: a flat amount or a percentage, paid into an account." },
  {
    name: "Disputes",
    description: "Disputes of card transactions: the evidence, a provisional credit, and the network's outcome.",
  },
  {
    name: "FX",
    description: "Exchange rates, and quotes whose hash (fxHash) funds a card from an account in another currency.",
  },
  {
    name: "Merchants",
    description: "The sandbox's merchant directory and the merchant categories that card controls name.",
  },
  { name: "Simulation", description: "Test mode only (test keys): play the card network and the bank." },
  {
    name: "Configuration",
    description: "Payment defaults: the bill-payment fee, the account payments out are debited from, and more.",
  },
  {
    name: "Banks",
    description: "Nigerian banks and their codes, the banks an account number may belong to, and its holder's name.",
  },
  {
    name: "Payouts",
    description:
      "Transfers to a bank account: debited from your account, paid through the bank rail, refunded if it fails.",
  },
  {
    name: "Payment requests",
    description: "A single-use bank account expecting one exact amount: the right amount completes it, others go back.",
  },
  {
    name: "Bills",
    description: "Bill payments (airtime, data, electricity, cable TV), their catalog and their validation.",
  },
  {
    name: "Webhooks",
    description: "Where events are sent, and the key that signs them. Each business has a default webhook per mode.",
  },
  { name: "Events", description: "Every event sent to your webhooks, with each delivery attempt; send one again." },
  { name: "Request logs", description: "Every API request of your business in this mode, bodies redacted." },
  {
    name: "Requests",
    description:
      "Delayed requests: a write answered 202 request-accepted (keys with delayedRequests on), and its answer.",
  },
  { name: "Billings", description: "The platform operator's charges to your business." },
  { name: "API keys", description: "Your business's secret keys in this mode: list, create restricted ones, revoke." },
  {
    name: "Console",
    description: "The web console's session (a secret key exchanged for a cookie) and its live stream.",
  },
  {
    name: "Admin",
    description: "Operator endpoints (X-Operator-Token): businesses, their secret keys, rate limits and charges.",
  },
  {
    name: "Event deliveries",
    description:
      "What the platform sends to your webhook: signed POSTs of event envelopes, some of which ask for a decision.",
  },
];

const TAG_OF_SEGMENT: Record<string, string> = {
  customers: "Customers",
  "card-programs": "Card programs",
  cards: "Cards",
  accounts: "Accounts",
  "card-authorizations": "Card authorizations",
  "card-transactions": "Card transactions",
  fees: "Fees",
  disputes: "Disputes",
  simulation: "Simulation",
  payments: "Bills",
  "payment-requests": "Payment requests",
  tools: "Bills",
  webhooks: "Webhooks",
  events: "Events",
  logs: "Request logs",
  requests: "Requests",
  billings: "Billings",
  "api-keys": "API keys",
  console: "Console",
  admin: "Admin",
};

/** Paths with a tag of their own, by their first two segments (tools other than these are the bill catalog's). */
const TAG_OF_SUBPATH: Record<string, string> = {
  "payments/payouts": "Payouts",
};
const TAG_OF_TOOL: Record<string, string> = {
  fx: "FX",
  merchants: "Merchants",
  configuration: "Configuration",
  banks: "Banks",
};

export function tagOf(path: string): string {
  const [, first = "", second = ""] = path.split("/");
  const tag =
    TAG_OF_SUBPATH[`${first}/${second}`] || (first === "tools" && TAG_OF_TOOL[second]) || TAG_OF_SEGMENT[first];
  if (!tag) throw new Error(`openapi: no tag for ${path}`);
  return tag;
}

export const WEBHOOK_TAG = "Event deliveries";
