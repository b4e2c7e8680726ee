import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigError, loadConfig } from "./config";

const shape = {
  PORT: z.coerce.number().int().min(1).default(8080),
  DATABASE_URL: z.string().regex(/^postgres:\/\//, "must be a postgres:// URL"),
};

describe("loadConfig", () => {
  it("applies defaults and coerces numbers", () => {
    expect(loadConfig(shape, { DATABASE_URL: "postgres://x" })).toEqual({ PORT: 8080, DATABASE_URL: "postgres://x" });
  });

  it("names every missing or bad variable on one line", () => {
    let error: unknown;
    try {
      loadConfig(shape, { PORT: "eighty" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).not.toContain("\n");
    expect(message).toMatch(/PORT .*number/i);
    expect(message).toContain("DATABASE_URL is missing");
  });
});
