import { describe, expect, it } from "vitest";
import { createLogger } from "./logger";

describe("logger", () => {
  it("never writes keys, signing keys or card data", () => {
    const lines: string[] = [];
    const logger = createLogger("test", "info", { write: (line: string) => void lines.push(line) });
    logger.info(
      {
        req: { headers: { authorization: "Bearer sk.test.secret" } },
        webhook: { signingKey: "shh" },
        card: { pan: "4111111111111111", cvv: "123" },
      },
      "hello",
    );
    const text = lines.join("");
    for (const secret of ["sk.test.secret", "shh", "4111111111111111", '"123"']) expect(text).not.toContain(secret);
    expect(text).toContain("[redacted]");
  });
});
