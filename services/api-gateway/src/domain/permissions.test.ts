import { describe, expect, it } from "vitest";
import { missingPermission, requiredPermission } from "./permissions";

describe("requiredPermission", () => {
  it.each([
    ["GET", "/customers", "read"],
    ["HEAD", "/customers", "read"],
    ["GET", "/cards/c.1", "read"],
    ["GET", "/logs", "read"],
    ["POST", "/customers", "write"],
    ["PUT", "/customers/cus.1", "write"],
    ["PATCH", "/cards/c.1", "write"],
    ["DELETE", "/webhooks/wh.1", "write"],
    ["OPTIONS", "/customers", "write"],
    ["POST", "/cards/c.1/secrets", "write"],
    ["GET", "/cards/c.1/secrets", "card-secrets"],
    ["HEAD", "/cards/c.1/secrets", "card-secrets"],
    ["get", "/cards/c.1/secrets", "card-secrets"],
    ["GET", "/cards/c.1/secrets/", "card-secrets"],
    ["GET", "/CARDS/c.1/Secrets", "card-secrets"],
    ["GET", "/webhooks/wh.1/secret", "webhook-secrets"],
    ["GET", "/WEBHOOKS/wh.1/Secret/", "webhook-secrets"],
    ["POST", "/webhooks/wh.1/secret/roll", "write"],
    ["GET", "/webhooks/wh.1", "read"],
    ["GET", "//cards//c.1//secrets", "card-secrets"],
    ["GET", "/cards/c.1/%73ecrets", "card-secrets"],
    ["GET", "/cards/c.1/%E0%A4%A/secrets", "card-secrets"],
  ] as const)("%s %s needs %s", (method, path, permission) => {
    expect(requiredPermission(method, path)).toBe(permission);
  });
});

describe("missingPermission", () => {
  it("lets a full-access key do everything", () => {
    expect(missingPermission(null, "GET", "/cards/c.1/secrets")).toBeUndefined();
    expect(missingPermission(null, "POST", "/customers")).toBeUndefined();
  });

  it("names what a restricted key lacks", () => {
    expect(missingPermission(["read"], "GET", "/customers")).toBeUndefined();
    expect(missingPermission(["read"], "POST", "/customers")).toBe("write");
    expect(missingPermission(["read"], "GET", "/cards/c.1/secrets")).toBe("card-secrets");
    expect(missingPermission(["write"], "GET", "/customers")).toBe("read");
    expect(missingPermission(["card-secrets"], "GET", "/cards/c.1/secrets")).toBeUndefined();
    expect(missingPermission(["card-secrets"], "GET", "/cards/c.1")).toBe("read");
  });
});
