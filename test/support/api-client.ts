export interface ApiReply {
  status: number;
  body: any;
}

/** Calls the Cardhold API as a customer does: Bearer secret key, JSON in and out. */
export function apiClient(baseUrl: () => string, key: () => string) {
  return async (method: string, path: string, body?: unknown): Promise<ApiReply> => {
    const res = await fetch(baseUrl() + path, {
      method,
      headers: { authorization: `Bearer ${key()}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
}

/** POST /admin/businesses with the operator token: the new business's id and test key. */
export async function createBusiness(
  baseUrl: string,
  operatorToken: string,
  body: { name: string; webhookUrl: string; signingKey?: string },
) {
  const res = await fetch(`${baseUrl}/admin/businesses`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-operator-token": operatorToken },
    body: JSON.stringify(body),
  });
  const reply = (await res.json()) as { data?: { business: { id: string }; testKey: string } };
  if (!reply.data) throw new Error(`POST /admin/businesses answered ${res.status}: ${JSON.stringify(reply)}`);
  return { businessId: reply.data.business.id, testKey: reply.data.testKey };
}

export interface GatewayCall {
  key?: string;
  body?: unknown;
  /** Sent as is instead of `body` (malformed JSON, odd encodings). */
  raw?: string;
  headers?: Record<string, string>;
}

/** Any request to a gateway, answers that are not JSON included: status, body (parsed when it is JSON) and headers. */
export async function callGateway(baseUrl: string, method: string, path: string, opts: GatewayCall = {}) {
  const headers: Record<string, string> = { "content-type": "application/json", ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  const response = await fetch(baseUrl + path, {
    method,
    headers,
    body: opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)),
  });
  const text = await response.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, body, headers: response.headers };
}
