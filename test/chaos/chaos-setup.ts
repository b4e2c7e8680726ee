import pg from "pg";
import type { WalletProcess } from "./wallet-process";
import { apiClient, createBusiness } from "../support/api-client";

/** Each card's account and its wallet start with this much (minor units): far more than the run can spend. */
export const STARTING_BALANCE = 1_000_000_000;
const CARDS = 12;

export interface ChaosSetup {
  key: string;
  customer: string;
  cards: string[];
  /** The wallet of each card, by card id. */
  walletOf: Map<string, string>;
}

interface SetupOptions {
  gatewayUrl: string;
  operatorToken: string;
  wallets: WalletProcess;
  walletWebhookUrl: string;
  paymentsUrl: string;
  databaseUrl: string;
  signingKey: string;
}

/**
 * One business whose default webhook is the wallet receiver (declining when it does not answer in time, so a stalled
 * wallet never misses money it did not approve), a second webhook for bill payment events, and cards on a
 * card-account program, each funded with the same amount as its own wallet.
 */
export async function setUpWallets(opts: SetupOptions): Promise<ChaosSetup> {
  const { testKey: key } = await createBusiness(opts.gatewayUrl, opts.operatorToken, {
    name: "Chaos Wallets",
    webhookUrl: opts.walletWebhookUrl,
    signingKey: opts.signingKey,
  });
  const call = apiClient(
    () => opts.gatewayUrl,
    () => key,
  );
  const ok = async (method: string, path: string, body?: unknown) => {
    const reply = await call(method, path, body);
    if (reply.status >= 300)
      throw new Error(`setup: ${method} ${path} answered ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body.data;
  };
  const walletApi = async (path: string, body: unknown) => {
    const res = await fetch(opts.wallets.url + path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (res.status !== 201) throw new Error(`setup: wallet POST ${path} answered ${res.status}`);
    return (await res.json()) as { id: string };
  };

  const walletHook = await defaultWebhook(ok, opts.walletWebhookUrl);
  await ok("PUT", `/webhooks/${walletHook.id}`, { timeoutDefault: "decline" });
  const paymentsHook = await ok("POST", "/webhooks", {
    name: "payments",
    events: ["payment.bill.completed", "payment.bill.failed"],
    url: opts.paymentsUrl,
    signingKey: "chaos-payments-signing-key-0123",
  });
  await ok("POST", `/webhooks/${paymentsHook.id}/enable`, {});

  const customer = await ok("POST", "/customers", {
    name: "Chaos Holder",
    reference: "chaos-holder",
    type: "individual",
    verifications: ["tier-2"],
    metadata: {},
    claims: {
      individualInformation: {
        firstName: "Chaos",
        lastName: "Holder",
        email: "chaos@example.com",
        phoneNumber: "+2348000000001",
        dateOfBirth: "1990-01-01",
      },
    },
  });
  const [account] = await ok("GET", "/accounts?filter=currency:NGN");
  await ok("POST", "/simulation/payments/pay-in", {
    accountNumber: account.depositChannels[0].accountNumber,
    amount: 100 * CARDS * STARTING_BALANCE,
    reference: "chaos-pay-in",
  });
  const program = await ok("POST", "/card-programs", {
    name: "Chaos",
    network: "verve",
    type: "virtual",
    currency: "NGN",
    authorization: { fundingSourceType: "card-account" },
  });
  const cards: string[] = [];
  const walletOf = new Map<string, string>();
  for (let n = 1; n <= CARDS; n++) {
    const card = await ok("POST", "/cards", {
      program: program.id,
      customer: customer.id,
      reference: `chaos-card-${n}`,
      amount: STARTING_BALANCE,
      debitSource: account.id,
    });
    const { cvv } = await ok("GET", `/cards/${card.id}/secrets`);
    await ok("POST", `/cards/${card.id}/activate`, { cvv, pin: "1234" });
    const wallet = await walletApi("/wallets", {
      holderName: `Chaos Holder ${n}`,
      available: STARTING_BALANCE,
      cards: [card.id],
    });
    cards.push(card.id);
    walletOf.set(card.id, wallet.id);
  }
  await bothWebhooksReachTheDispatcher(opts.databaseUrl, cards[0]!, walletHook.id);
  return { key, customer: customer.id, cards, walletOf };
}

/** The business's default webhook, created by the webhook-registry once it learns of the business (over Kafka). */
async function defaultWebhook(
  ok: (method: string, path: string) => Promise<any>,
  url: string,
): Promise<{ id: string }> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const hook = ((await ok("GET", "/webhooks")) as Array<{ id: string; url: string }>).find((h) => h.url === url);
    if (hook) return hook;
    if (Date.now() > deadline)
      throw new Error("setup: the business got no default webhook to the wallet receiver within 60 s");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The dispatcher and the engine learn webhooks from Kafka: the load starts once both know them as set up. */
async function bothWebhooksReachTheDispatcher(databaseUrl: string, card: string, walletHook: string): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { rows } = await db.query(
        "SELECT count(*)::int AS n FROM dispatcher.webhooks WHERE business_id = (SELECT business_id FROM engine.cards WHERE id = $1) AND mode = 'test' AND status = 'enabled'",
        [card],
      );
      const decline = await db.query("SELECT 1 FROM engine.webhooks WHERE id = $1 AND timeout_default = 'decline'", [
        walletHook,
      ]);
      if (rows[0].n >= 2 && decline.rows.length === 1) return;
      if (Date.now() > deadline) throw new Error("setup: the dispatcher did not learn both webhooks within 60 s");
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    await db.end();
  }
}
