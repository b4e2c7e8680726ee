import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redactedJsonText, redactSecrets, TOO_DEEP } from "./logger";

const asRedactSecretsWouldLog = (value: unknown) => JSON.parse(JSON.stringify(redactSecrets(value))) as unknown;

describe("redactedJsonText", () => {
  it("keeps a clean answer's text as it is", () => {
    const text = '{"code":"success","data":[{"id":"cus.1","name":"Ada","metadata":{"tier":2}}]}';
    expect(redactedJsonText(text)).toBe(text);
  });

  it.each([
    ['{"data":{"signingKey":"whsec_1"}}', { data: { signingKey: "[redacted]" } }],
    ['{"PAN":"4111111111111111","keep":1}', { PAN: "[redacted]", keep: 1 }],
    ['{"a": {"refreshToken" : "t"}}', { a: { refreshToken: "[redacted]" } }],
    ['{"to\\u006ben":"t","b":"x"}', { token: "[redacted]", b: "x" }],
    ['{"note":"say \\"hi\\"","apiKey":"k"}', { note: 'say "hi"', apiKey: "[redacted]" }],
  ])("redacts %s", (text, logged) => {
    expect(JSON.parse(redactedJsonText(text))).toEqual(logged);
  });

  it("replaces what is nested too deep, as redactSecrets does", () => {
    const deep = "[".repeat(25) + "]".repeat(25);
    expect(redactedJsonText(`{"a":${deep}}`)).toContain(TOO_DEEP);
    const shallow = `{"a":${"[".repeat(19)}${"]".repeat(19)}}`;
    expect(redactedJsonText(shallow)).toBe(shallow);
  });

  it("a key word inside a value is not a key; braces inside strings are not nesting", () => {
    const text = `{"note":"token: {{{{{{{{{{{{{{{{{{{{{{{{","pan_last4":"1234"}`;
    expect(redactedJsonText(text)).toBe(text);
  });

  it("throws on text that is not JSON", () => {
    expect(() => redactedJsonText("<html>bad gateway</html>")).toThrow(SyntaxError);
  });

  it("logs what redactSecrets would, for any JSON value", () => {
    const key = fc.oneof(
      fc.string(),
      fc.constantFrom("pan", "Cvv", "key", "apiKey", "clientSecret", "token", "password"),
    );
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.oneof(
          fc.string(),
          fc.integer(),
          fc.double({ noNaN: true, noDefaultInfinity: true }),
          fc.boolean(),
          fc.constant(null),
        ),
        fc.array(tie("value")),
        fc.dictionary(key, tie("value")),
      ),
    })).value;
    fc.assert(
      fc.property(json, (value) => {
        const text = JSON.stringify(value);
        expect(JSON.parse(redactedJsonText(text))).toEqual(asRedactSecretsWouldLog(value));
      }),
      { numRuns: 500 },
    );
  });
});
