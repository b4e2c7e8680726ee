import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./database-unavailable";

const withCode = (code: string, message = "x") => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  it.each([
    ["refused (server stopped)", withCode("ECONNREFUSED")],
    ["socket file gone (embedded server stopped)", withCode("ENOENT")],
    ["connection reset", withCode("ECONNRESET")],
    ["starting up or recovering (57P03)", withCode("57P03", "the database system is starting up")],
    ["terminated by an administrator (57P01)", withCode("57P01")],
    ["crash shutdown (57P02)", withCode("57P02")],
    ["connection failure (08006)", withCode("08006")],
    ["connection terminated", new Error("Connection terminated unexpectedly")],
    ["pool timeout", new Error("timeout exceeded when trying to connect")],
  ])("%s: yes", (_name, err) => expect(isDatabaseUnavailable(err)).toBe(true));

  it.each([
    ["a unique violation", withCode("23505")],
    ["a syntax error", withCode("42601")],
    ["a serialization failure", withCode("40001")],
    ["a plain error", new Error("boom")],
    ["not an object", "ECONNREFUSED"],
    ["null", null],
  ])("%s: no", (_name, err) => expect(isDatabaseUnavailable(err)).toBe(false));
});
