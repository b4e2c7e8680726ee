import { request, type Agent } from "undici";

type Headers = Record<string, string | string[] | undefined>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the benchmarks read a few known fields of each answer
export type Json = any;

export interface BenchApi {
  /** One request with the business's key: its status and JSON body, whatever the status. */
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json; headers: Headers }>;
  /** One request that must succeed (2xx): its `data`. */
  api(method: string, path: string, body?: unknown): Promise<Json>;
}

/** The public API at `base` with `key`, through the benchmark's own connection pool. */
export function benchApi(base: string, key: string, agent: Agent): BenchApi {
  const call: BenchApi["call"] = async (method, path, body) => {
    const res = await request(base + path, {
      method: method as "GET",
      dispatcher: agent,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.statusCode, body: (await res.body.json()) as Json, headers: res.headers };
  };
  const api: BenchApi["api"] = async (method, path, body) => {
    let res = await call(method, path, body);
    // A setup of many cards goes past the key's rate limit: a 429 did nothing, so it is sent again when told.
    while (res.status === 429) {
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers["retry-after"] ?? 1)));
      res = await call(method, path, body);
    }
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  return { call, api };
}

/** The business's NGN settlement account, once businesses.v1 has opened it. */
async function settlementAccount(client: BenchApi, timeoutMs = 60_000): Promise<Json> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const accounts = (await client.api("GET", "/accounts?filter=currency:NGN")) as Json[];
    if (accounts.length > 0) return accounts[0];
    if (Date.now() > deadline) throw new Error("the business has no NGN account after 60 s");
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * A funded settlement account, one customer, a card-account program and `count` active cards each funded from the
 * settlement account; `label` names them (`<label>-card-<i>`). Resolves to the card ids.
 */
export async function fundedActiveCards(client: BenchApi, count: number, label: string): Promise<string[]> {
  const account = await settlementAccount(client);
  await client.api("POST", "/simulation/payments/pay-in", {
    accountNumber: account.depositChannels[0].accountNumber,
    amount: 1e12,
  });
  const customer = await client.api("POST", "/customers", {
    name: `${label} holder`,
    reference: `${label}-${Date.now()}`,
    type: "individual",
    verifications: ["tier-1"],
    metadata: {},
    claims: {
      individualInformation: {
        firstName: "Bench",
        lastName: "Holder",
        email: "b@example.com",
        phoneNumber: "+2348000000000",
        dateOfBirth: "1990-01-01",
      },
    },
  });
  const program = await client.api("POST", "/card-programs", {
    name: label,
    network: "verve",
    type: "virtual",
    currency: "NGN",
    authorization: { fundingSourceType: "card-account" },
  });
  const cards: string[] = [];
  for (let i = 0; i < count; i++) {
    const card = await client.api("POST", "/cards", {
      program: program.id,
      customer: customer.id,
      reference: `${label}-card-${i}`,
      amount: 1e10,
      debitSource: account.id,
    });
    const secrets = await client.api("GET", `/cards/${card.id}/secrets`);
    await client.api("POST", `/cards/${card.id}/activate`, { cvv: secrets.cvv, pin: "1234" });
    cards.push(card.id);
  }
  return cards;
}
