import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream, type PDFObject } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@cardhold/platform";
import { eventually } from "../../../test/support/eventually";
import { callService } from "../../../test/support/internal-api";
import { announceCustomer, call, eventsFor, INTERNAL, startHarness, type Caller, type Harness } from "./harness";

const ELECTRICITY = "bp.11pALsZ5v2NiSC34t"; // Ikeja Electric prepaid: meterNumber + amount, fee 10000
const DECLINED_METER = "45000001111"; // the sandbox biller declines it

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

const api = (as: Caller, method: string, path: string, body?: unknown) => call(h, as, method, path, body);
const business = (): Caller => ({ businessId: newId("business"), mode: "test" });
const electricity = (meterNumber = "45000000001") => ({
  product: ELECTRICITY,
  inputs: { meterNumber, amount: "150000" },
});

/** A business with an NGN default account of `balance`, and a payment it made. */
async function paid(balance: number, body: Record<string, unknown> = electricity()) {
  const as = business();
  const account = h.ledger.openAccount(as.businessId, "test", "NGN", balance);
  const res = await api(as, "POST", "/payments/bill", body);
  expect(res.status).toBe(201);
  return { as, account, payment: res.body.data };
}

/** The PDF's text as drawn: pdf-lib writes each line as a hex string shown with Tj in a flate-encoded stream. */
function textOf(doc: PDFDocument): string[] {
  const streams = (contents: PDFObject | undefined): PDFRawStream[] => {
    const resolved = contents && doc.context.lookup(contents);
    if (resolved instanceof PDFArray) return resolved.asArray().flatMap(streams);
    return resolved instanceof PDFRawStream ? [resolved] : [];
  };
  return doc.getPages().flatMap((page) =>
    streams(page.node.Contents()).flatMap((stream) => {
      const operators = Buffer.from(decodePDFRawStream(stream).decode()).toString("latin1");
      return [...operators.matchAll(/<([0-9A-Fa-f]*)> Tj/g)].map((m) => Buffer.from(m[1]!, "hex").toString("latin1"));
    }),
  );
}

const pdfOf = (as: Caller, id: string) =>
  fetch(`${h.http.url}/payments/${id}/generate/pdf`, {
    headers: { "x-internal-token": INTERNAL, "x-business-id": as.businessId, "x-mode": as.mode },
  });

describe("GET /payments/:id/generate/pdf", () => {
  it("answers the payment's receipt as a PDF attachment: amounts, status, reference, product, ids, dates", async () => {
    const as = business();
    h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    const customer = await announceCustomer(h, as, "Ngozi Obi");
    const payment = (await api(as, "POST", "/payments/bill", { ...electricity(), customer, reference: "rcpt-1" })).body
      .data;
    const res = await pdfOf(as, payment.id);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${payment.id}.pdf"`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Buffer.from(bytes.slice(0, 5)).toString()).toBe("%PDF-");

    const doc = await PDFDocument.load(bytes, { updateMetadata: false });
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getTitle()).toBe(`Payment receipt ${payment.id}`);
    expect(doc.getSubject()).toBe("Ikeja Electric prepaid for 45000000001");
    // PDF dates are to the second.
    expect(doc.getCreationDate()?.toISOString()).toBe(`${payment.createdAt.slice(0, 19)}.000Z`);
    const text = textOf(doc);
    expect(text[0]).toBe(`Payment receipt ${payment.id}`);
    for (const line of [
      "Successful",
      "NGN 1,500.00",
      "NGN 100.00",
      "NGN 1,600.00",
      `Ikeja Electric prepaid (${ELECTRICITY})`,
      "45000000001",
      payment.methodData.accountName,
      payment.methodData.output.token,
      payment.methodData.billerReference,
      "rcpt-1",
      payment.id,
      payment.account,
      customer,
      `${payment.createdAt.slice(0, 10)} ${payment.createdAt.slice(11, 19)} UTC`,
    ]) {
      expect(text, line).toContain(line);
    }
    // The same payment gives the same bytes.
    expect(new Uint8Array(await (await pdfOf(as, payment.id)).arrayBuffer())).toEqual(bytes);
  });

  it("shows a failed payment's reason", async () => {
    const { as, payment } = await paid(100_000);
    const doc = await PDFDocument.load(await (await pdfOf(as, payment.id)).arrayBuffer());
    expect(textOf(doc)).toContain("Failed (insufficient-funds)");
  });

  it("answers 404 JSON for an unknown id, a malformed one and another business's payment", async () => {
    const { payment } = await paid(1_000_000);
    for (const id of [newId("payment"), "not-a-payment", payment.id]) {
      const res = await pdfOf(business(), id);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(await res.json()).toMatchObject({ statusCode: 404, code: "not-found" });
    }
  });
});

describe("POST /payments/:id/requeue", () => {
  it("retries a payment that failed for want of funds as a new payment, once", async () => {
    const { as, account, payment } = await paid(100_000, { ...electricity(), reference: "req-1", metadata: { n: 1 } });
    expect(payment).toMatchObject({ status: "failed", failureReason: "insufficient-funds" });
    const funded = h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);

    const res = await api(as, "POST", `/payments/${payment.id}/requeue`, {});
    expect(res.status).toBe(201);
    const retry = res.body.data;
    expect(retry.id).not.toBe(payment.id);
    expect(retry).toMatchObject({
      status: "successful",
      amount: 150_000,
      fees: 10_000,
      account: funded,
      reference: null,
      metadata: { n: 1 },
      methodData: { product: ELECTRICITY, inputs: payment.methodData.inputs, requeuedFrom: payment.id },
    });
    expect(h.ledger.balance(funded)).toBe(1_000_000 - 160_000);
    expect(h.ledger.balance(account)).toBe(100_000);
    const failed = (await api(as, "GET", `/payments/${payment.id}`)).body.data;
    expect(failed).toMatchObject({ status: "failed", reference: "req-1", methodData: { requeuedAs: retry.id } });

    // Asked again (no body this time): the same retry, no second debit.
    const again = await api(as, "POST", `/payments/${payment.id}/requeue`);
    expect(again).toMatchObject({ status: 201, body: { code: "success", data: { id: retry.id } } });
    expect(h.ledger.debitsFor(retry.id)).toBe(1);
    const payments = (await api(as, "GET", "/payments?limit=100")).body.data;
    expect(payments).toHaveLength(2);
  });

  it("makes one retry of concurrent requeues", async () => {
    const { as, payment } = await paid(100_000);
    const funded = h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    const replies = await Promise.all([1, 2, 3].map(() => api(as, "POST", `/payments/${payment.id}/requeue`, {})));
    const ids = new Set(replies.map((r) => r.body.data.id));
    expect(ids.size).toBe(1);
    expect(h.ledger.balance(funded)).toBe(1_000_000 - 160_000);
  });

  it("answers an Idempotency-Key's repeat with the first answer", async () => {
    const { as, payment } = await paid(100_000);
    h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    const requeue = () =>
      callService(h.http.url, INTERNAL, as, "POST", `/payments/${payment.id}/requeue`, {}, { "idempotency-key": "rq" });
    const first = await requeue();
    const repeat = await requeue();
    expect(repeat).toMatchObject({ status: 201, body: first.body });
    expect(repeat.headers?.get("idempotent-replayed")).toBe("true");
  });

  it("pays a declined bill anew: a new debit, a new biller order, and a refund when it is declined again", async () => {
    const { as, account, payment } = await paid(1_000_000, electricity(DECLINED_METER));
    expect(payment).toMatchObject({ status: "failed", failureReason: "biller-declined" });
    const res = await api(as, "POST", `/payments/${payment.id}/requeue`, {});
    expect(res.status).toBe(201);
    const retry = res.body.data;
    expect(retry).toMatchObject({ status: "failed", failureReason: "biller-declined" });
    expect(h.biller.pays.get(retry.id)).toBe(1);
    expect(h.ledger.commandsFor(retry.id).map((c) => c.type)).toEqual(["ledger.debit", "ledger.refund"]);
    expect(h.ledger.balance(account)).toBe(1_000_000);
  });

  it("refuses with 422 a failure the same inputs would meet again: an unknown debit account", async () => {
    const as = business();
    h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    const unknown = newId("account");
    const payment = (await api(as, "POST", "/payments/bill", { ...electricity(), debitSource: unknown })).body.data;
    expect(payment).toMatchObject({ status: "failed", failureReason: "account-not-found" });
    const res = await api(as, "POST", `/payments/${payment.id}/requeue`, {});
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ statusCode: 422, code: "payment-not-retryable" });
    expect(res.body.message).toContain(unknown);
  });

  it("refuses with 422 a payment that did not fail", async () => {
    const { as, payment } = await paid(1_000_000);
    const res = await api(as, "POST", `/payments/${payment.id}/requeue`, {});
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ statusCode: 422, code: "invalid-state" });
  });

  it("answers 404 for an unknown id and another business's payment, and 400 for a body that is not an object", async () => {
    const { as, payment } = await paid(100_000);
    for (const id of [newId("payment"), payment.id]) {
      expect((await api(business(), "POST", `/payments/${id}/requeue`, {})).body).toMatchObject({ statusCode: 404 });
    }
    const bad = await api(as, "POST", `/payments/${payment.id}/requeue`, ["retry"]);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("invalid-request");
  });
});

describe("POST /payments/:id/resend-events/payment-completed", () => {
  const resend = (as: Caller, id: string, body: unknown = {}) =>
    api(as, "POST", `/payments/${id}/resend-events/payment-completed`, body);

  it("sends payment.bill.completed again, with the payment as it is now, under a new event id", async () => {
    const { as, payment } = await paid(1_000_000);
    await eventually(() => expect(eventsFor(h, payment.id)).toHaveLength(1), 5_000);
    const res = await resend(as, payment.id);
    expect(res.status).toBe(200);
    const record = res.body.data;
    expect(res.body.code).toBe("success");
    expect(record).toMatchObject({ id: payment.id, status: "successful", methodData: payment.methodData });
    expect(record.events).toEqual([payment.events[0], expect.stringMatching(/^evt\./)]);
    const [first, again] = await eventually(() => {
      expect(eventsFor(h, payment.id)).toHaveLength(2);
      return eventsFor(h, payment.id);
    }, 5_000);
    expect(again!).toMatchObject({ type: "event.published", businessId: as.businessId, mode: "test" });
    expect(again!.data.envelope).toEqual({
      event: first!.data.envelope.event,
      data: record,
      metadata: { sentAt: expect.any(String), event: record.events[1] },
    });
    expect(again!.data.envelope.event).toBe("payment.bill.completed");
    expect((await api(as, "GET", `/payments/${payment.id}`)).body.data).toEqual(record);
  });

  it("sends nothing more for an Idempotency-Key's repeat", async () => {
    const { as, payment } = await paid(1_000_000);
    const send = () =>
      callService(
        h.http.url,
        INTERNAL,
        as,
        "POST",
        `/payments/${payment.id}/resend-events/payment-completed`,
        {},
        { "idempotency-key": "again-1" },
      );
    const first = await send();
    const repeat = await send();
    expect(repeat).toMatchObject({ status: 200, body: first.body });
    expect(repeat.headers?.get("idempotent-replayed")).toBe("true");
    await eventually(() => expect(eventsFor(h, payment.id)).toHaveLength(2), 5_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(eventsFor(h, payment.id)).toHaveLength(2);
  });

  it("refuses with 422 a payment that is not successful", async () => {
    const { as, payment } = await paid(100_000);
    const res = await resend(as, payment.id);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ statusCode: 422, code: "invalid-state" });
  });

  it("answers 404 for an unknown id and another business's payment, and 400 for a body that is not an object", async () => {
    const { as, payment } = await paid(1_000_000);
    for (const id of [newId("payment"), payment.id]) {
      expect((await resend(business(), id)).body).toMatchObject({ statusCode: 404, code: "not-found" });
    }
    expect((await resend(as, payment.id, "again")).status).toBe(400);
  });
});
