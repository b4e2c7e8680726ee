import { describe, expect, it } from "vitest";
import { ownerOf } from "./routing";

describe("which service owns a public path", () => {
  it.each([
    ["/customers/cus.1", "customer-service"],
    ["/webhooks", "webhook-registry"],
    ["/webhooks/wh.1/enable", "webhook-registry"],
    ["/webhooks/wh.1/secret/roll", "webhook-registry"],
    ["/webhooks/test", "webhook-registry"],
    ["/webhooks/wh.1/test/more", "webhook-registry"],
    ["/webhooks/wh.1/test", "event-dispatcher"],
    ["/webhooks/wh.1/test/", "event-dispatcher"],
    ["/webhooks/wh.1/TEST", "event-dispatcher"],
    ["/events/stats", "event-dispatcher"],
    ["/card-authorizations/stats", "authorization-engine"],
    ["/events/evt.1/retry", "event-dispatcher"],
    ["/cards/c.1/fund", "authorization-engine"],
    ["/fees", "authorization-engine"],
    ["/disputes/dsp.1/close", "authorization-engine"],
    ["/simulation/disputes/dsp.1/win", "authorization-engine"],
    ["/simulation/payments/pay-in", "authorization-engine"],
    ["/payments/bill", "bill-service"],
    ["/payment-requests", "authorization-engine"],
    ["/payment-requests/preq.1", "authorization-engine"],
    ["/tools/bills/products", "bill-service"],
    ["/tools/banks/resolve", "bill-service"],
    ["/tools/configuration/payment", "bill-service"],
    ["/tools/fx/quotes", "authorization-engine"],
    ["/tools/merchants/categories", "authorization-engine"],
  ])("%s → %s", (path, owner) => {
    expect(ownerOf(path)).toBe(owner);
  });

  it.each([
    "/",
    "/nothing",
    "/tools",
    "/tools/unknown",
    "/tools/constructor",
    "/constructor",
    "/__proto__",
    // Internal only: the dispatcher's way back to the engine that asked, and the engine's way to the dispatcher, are
    // never public paths.
    "/internal/decision-answers",
    "/internal/events",
  ])("%s → none (404)", (path) => {
    expect(ownerOf(path)).toBeUndefined();
  });
});
