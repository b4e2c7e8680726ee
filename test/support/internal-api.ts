import { TOPICS, type CustomerChangedMessage, type Mode } from "@cardhold/contracts";
import { newId } from "@cardhold/platform";

/** Whose request it is, as the gateway tells the services. */
export interface Caller {
  businessId: string;
  mode: Mode;
}

export interface Reply {
  status: number;
  body: any;
  headers?: Headers;
}

/** Calls a service as the gateway does: internal token, business and mode headers, JSON in and out. */
export async function callService(
  baseUrl: string,
  internalToken: string,
  as: Caller,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const res = await fetch(baseUrl + path, {
    method,
    headers: {
      "x-internal-token": internalToken,
      "x-business-id": as.businessId,
      "x-mode": as.mode,
      "content-type": "application/json",
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

/** A customers.v1 message announcing a new active customer, as the customer-service publishes it. */
export function customerCreated(as: Caller, name: string) {
  const id = newId("customer");
  const now = new Date().toISOString();
  const value: CustomerChangedMessage = {
    type: "customer.created",
    businessId: as.businessId,
    mode: as.mode,
    occurredAt: now,
    data: {
      id,
      object: "customer",
      name,
      reference: `ref-${id}`,
      type: "individual",
      status: "active",
      claims: {},
      verifications: [{ type: "tier-1", status: "verified" }],
      metadata: {},
      createdAt: now,
      updatedAt: now,
    },
  };
  return { topic: TOPICS.customers, key: id, value, id: newId("message") };
}
