import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIGNING_KEY } from "./test-support/deliveries.js";
import { startWalletReceiver, type WalletReceiver } from "./wallet-receiver.js";

// Whatever a client gets wrong, the answer is JSON in the receiver's error shape, never express's HTML page.
let receiver: WalletReceiver;
beforeAll(async () => {
  receiver = await startWalletReceiver({ signingKey: SIGNING_KEY, port: 0 });
});
afterAll(() => receiver?.stop());

async function call(method: string, path: string, body?: string, contentType = "application/json") {
  const res = await fetch(receiver.url + path, {
    method,
    body,
    headers: body === undefined ? {} : { "content-type": contentType },
  });
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return { status: res.status, allow: res.headers.get("allow"), body: await res.json() };
}

describe("answers to what the receiver does not serve", () => {
  it("an unknown route: 404 Not Found, whatever the method and body", async () => {
    for (const [method, path] of [
      ["GET", "/"],
      ["GET", "/nope"],
      ["POST", "/wallets/w.1/nope"],
      ["DELETE", "/webhooks"],
    ] as const) {
      expect(await call(method, path), `${method} ${path}`).toEqual({
        status: 404,
        allow: null,
        body: { error: "Not Found" },
      });
    }
    expect(await call("POST", "/nope", "{not json")).toMatchObject({ status: 404, body: { error: "Not Found" } });
  });

  it("a known route with a method it does not take: 405 Method Not Allowed, with the methods it takes", async () => {
    const cases = [
      ["GET", "/webhook", "POST"],
      ["PUT", "/webhook", "POST"],
      ["GET", "/wallets", "POST"],
      ["DELETE", "/wallets/w.1", "GET, HEAD, PATCH"],
      ["GET", "/wallets/w.1/deposits", "POST"],
      ["POST", "/liens", "GET, HEAD"],
      ["POST", "/health", "GET, HEAD"],
    ] as const;
    for (const [method, path, allow] of cases) {
      expect(await call(method, path), `${method} ${path}`).toEqual({
        status: 405,
        allow,
        body: { error: "Method Not Allowed" },
      });
    }
  });

  it("a malformed or too large body: 400 Invalid JSON, 413 Request Too Large, 400 Invalid Request", async () => {
    expect(await call("POST", "/wallets", '{"holderName": "Ada",')).toEqual({
      status: 400,
      allow: null,
      body: { error: "Invalid JSON" },
    });
    expect(await call("PATCH", "/wallets/w.1", "[1, 2")).toMatchObject({
      status: 400,
      body: { error: "Invalid JSON" },
    });
    const large = JSON.stringify({ holderName: "x".repeat(200_000), available: 1 });
    expect(await call("POST", "/wallets", large)).toMatchObject({ status: 413, body: { error: "Request Too Large" } });
    expect(await call("POST", "/wallets", "holderName=Ada", "text/plain")).toMatchObject({
      status: 400,
      body: { error: "Invalid Request" },
    });
    expect(await call("GET", "/wallets/%E0%A4%A")).toMatchObject({ status: 400, body: { error: "Invalid Request" } });
    expect(await call("POST", "/webhook", "{not json")).toEqual({
      status: 400,
      allow: null,
      body: { error: "Invalid Signature" },
    });
  });
});
