import { describe, expect, it } from "vitest";
import { isReservedHeaderName, signatureHeadersSchema } from "./signature-headers";

const problems = (input: unknown) =>
  (signatureHeadersSchema.safeParse(input).error?.issues ?? []).map((i) => [i.path.join("."), i.message] as const);

describe("signature header names", () => {
  it.each([
    [[]],
    [["Acme-Signature"]],
    [["acme-signature", "X-Acme-Sig", "Sig_2", "a!#$%&'*+-.^_`|~z"]],
    [["A", "B", "C", "D", "E"]],
    [["X-Forwarded"]], // only the x-forwarded- family is reserved
  ])("%j is accepted as written", (names) => {
    expect(signatureHeadersSchema.parse(names)).toEqual(names);
  });

  it.each([
    [["Acme Signature"], "0", "HTTP header name"],
    [["Acme-Signature:"], "0", "HTTP header name"],
    [["Acmé-Signature"], "0", "HTTP header name"],
    [["Acme\r\nX: y"], "0", "HTTP header name"],
    [[""], "0", "empty"],
    [["x".repeat(65)], "0", "64 characters"],
    [["ok", 7], "1", "string"],
    [["Service-Signature"], "0", "platform or HTTP"],
    [["SERVICE-SIGNATURE"], "0", "platform or HTTP"],
    [["content-type"], "0", "platform or HTTP"],
    [["Content-MD5"], "0", "platform or HTTP"],
    [["Host"], "0", "platform or HTTP"],
    [["User-Agent"], "0", "platform or HTTP"],
    [["traceparent"], "0", "platform or HTTP"],
    [["Idempotency-Key"], "0", "platform or HTTP"],
    [["Webhook-Signature"], "0", "platform or HTTP"],
    [["X-Cardhold-Event-Id"], "0", "platform or HTTP"],
    [["Transfer-Encoding"], "0", "platform or HTTP"],
    [["Acme-Signature", "acme-signature"], "", "repeat"],
    [["A", "B", "C", "D", "E", "F"], "", "at most 5"],
    ["Acme-Signature", "", "array"],
  ])("%j → a problem at %j (%s)", (input, path, message) => {
    const found = problems(input);
    expect(found).toContainEqual([path, expect.stringContaining(message)]);
  });

  it.each([
    ["service-signature", true],
    ["Content-Length", true],
    ["proxy-authorization", true],
    ["Acme-Signature", false],
    ["Signature", false],
  ])("%s reserved: %s", (name, reserved) => {
    expect(isReservedHeaderName(name)).toBe(reserved);
  });
});
