import { describe, expect, it } from "vitest";
import { answerAddress } from "./answer-address";

describe("the address an engine gives for answers to its decision events", () => {
  it.each([
    ["http://engine-0.engine:8084", "0.0.0.0", 8084, "http://engine-0.engine:8084"],
    ["off", "127.0.0.1", 8084, undefined],
    [undefined, "127.0.0.1", 8084, "http://127.0.0.1:8084"],
    [undefined, "10.1.2.3", 9000, "http://10.1.2.3:9000"],
    [undefined, "::1", 8084, "http://[::1]:8084"],
    [undefined, "0.0.0.0", 8084, undefined],
    [undefined, "::", 8084, undefined],
    [undefined, "127.0.0.1", 0, undefined],
  ])("ENGINE_ANSWER_URL %s, HOST %s, PORT %s → %s", (given, host, port, expected) => {
    expect(answerAddress(given, host, port)).toBe(expected);
  });
});
