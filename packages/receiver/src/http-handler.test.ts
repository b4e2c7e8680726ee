import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import express from "express";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { approve, approveCheck } from "./answers.js";
import { receiverRouter } from "./http-handler.js";
import { createReceiver } from "./receiver.js";
import { memoryDeliveryStore } from "./store.js";

const KEY = "http-handler-signing-key";
const sign = (body: string) => createHmac("sha512", KEY).update(body).digest("hex");
const receiver = createReceiver({
  signingKey: KEY,
  store: memoryDeliveryStore(),
  handlers: {
    check: () => approveCheck(5, "Ada"),
    capture: () => approve(),
    closed: () => approve(),
    amountUpdate: () => approve(),
    reversal: () => approve(),
  },
});
const check = JSON.stringify({
  event: "card.authorization.request",
  data: {
    id: "c.auth.H",
    object: "card.authorization",
    card: "c.1",
    type: "check",
    status: "pending",
    amount: 0,
    currency: "NGN",
    createdAt: "2024-01-01T00:00:00.000Z",
  },
  metadata: { sentAt: "2024-01-01T00:00:00.000Z", event: "evt.H" },
});

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
}
const post = async (url: string, body: string, signature = sign(body), header = "service-signature") => {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", [header]: signature },
    body,
  });
  return { status: res.status, body: await res.json() };
};

describe("receiverRouter", () => {
  it("works on plain node:http: answers POSTs to its path, 404 elsewhere, 413 above the limit", async () => {
    const handler = receiverRouter(receiver, "/webhook", { limit: 2_000 });
    const url = await serve((req, res) => handler(req, res));
    expect(await post(`${url}/webhook`, check)).toEqual({
      status: 200,
      body: { action: "approve", cardBalance: 5, cardHolderName: "Ada" },
    });
    expect((await post(`${url}/webhook?x=1`, check)).status).toBe(200);
    expect((await post(`${url}/elsewhere`, check)).status).toBe(404);
    expect((await fetch(`${url}/webhook`)).status).toBe(404);
    expect((await post(`${url}/webhook`, " ".repeat(3_000))).status).toBe(413);
  });

  it("reads the signature from another header when told to (a webhook's signatureHeaders), case-insensitively", async () => {
    const handler = receiverRouter(receiver, "/", { signatureHeader: "Acme-Signature" });
    const url = await serve((req, res) => handler(req, res));
    expect(await post(url, check, sign(check), "Acme-Signature")).toMatchObject({ status: 200 });
    expect(await post(url, check, sign(check), "acme-signature")).toMatchObject({ status: 200 });
    expect(await post(url, check, sign("other"), "Acme-Signature")).toEqual({
      status: 400,
      body: { error: "Invalid Signature" },
    });
    expect(await post(url, check)).toEqual({ status: 400, body: { error: "Invalid Signature" } }); // Service-Signature only
  });

  it("reads the Standard Webhooks headers: verified, a replay refused, a stale timestamp refused", async () => {
    const handler = receiverRouter(receiver, "/");
    const url = await serve((req, res) => handler(req, res));
    const body = check.replace("evt.H", "evt.SW");
    const standard = (sentAt: Date) => ({
      "webhook-id": "evt.SW",
      "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
      "webhook-signature": new Webhook(`whsec_${Buffer.from(KEY).toString("base64")}`).sign("evt.SW", sentAt, body),
    });
    const send = async (headers: Record<string, string>) => {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", "service-signature": sign(body), ...headers },
        body,
      });
      return { status: res.status, body: await res.json() };
    };
    const now = standard(new Date());
    expect(await send(now)).toMatchObject({ status: 200, body: { action: "approve" } });
    expect(await send(now)).toEqual({ status: 400, body: { error: "Replayed Request" } });
    expect(await send(standard(new Date(Date.now() - 600_000)))).toEqual({
      status: 400,
      body: { error: "Invalid Timestamp" },
    });
    expect(await send({ ...now, "webhook-signature": "v1,AAAA" })).toEqual({
      status: 400,
      body: { error: "Invalid Signature" },
    });
  });

  it("mounted in express: passes other requests on, and says so when a JSON parser ate the raw body", async () => {
    const errors: unknown[] = [];
    const app = express();
    app.use("/hooks", receiverRouter(receiver));
    app.use("/parsed", express.json(), receiverRouter(receiver, "/", { onError: (e) => errors.push(e) }));
    app.get("/hooks/health", (_req, res) => void res.json({ ok: true }));
    const url = await serve(app);
    expect(await post(`${url}/hooks`, check)).toMatchObject({ status: 200, body: { action: "approve" } });
    expect(await (await fetch(`${url}/hooks/health`)).json()).toEqual({ ok: true });
    expect(await post(`${url}/parsed`, check)).toEqual({ status: 500, body: { error: "Internal Error" } });
    expect(String(errors[0])).toContain("mount receiverRouter before express.json()");
  });
});
