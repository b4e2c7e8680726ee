import { describe, expect, it } from "vitest";
import type { Authorization } from "./api/types";
import { mergeLive } from "./live-merge";

const auth = (id: string, createdAt: string, fields: Partial<Authorization> = {}) =>
  ({ id, createdAt, updatedAt: createdAt, status: "pending", ...fields }) as Authorization;

describe("the live authorization list", () => {
  const page = [auth("c.auth.2", "2025-01-01T10:00:02Z"), auth("c.auth.1", "2025-01-01T10:00:01Z")];

  it("puts new ones on top, newest first", () => {
    const merged = mergeLive(page, [
      auth("c.auth.3", "2025-01-01T10:00:03Z"),
      auth("c.auth.4", "2025-01-01T10:00:04Z"),
    ]);
    expect(merged.map((a) => a.id)).toEqual(["c.auth.4", "c.auth.3", "c.auth.2", "c.auth.1"]);
  });

  it("replaces a changed one in place with its latest version, never an older one", () => {
    const approved = auth("c.auth.1", "2025-01-01T10:00:01Z", {
      status: "approved",
      updatedAt: "2025-01-01T10:00:05Z",
    });
    const stale = auth("c.auth.1", "2025-01-01T10:00:01Z", { status: "pending", updatedAt: "2025-01-01T10:00:02Z" });
    const merged = mergeLive(page, [approved, stale]);
    expect(merged.map((a) => [a.id, a.status])).toEqual([
      ["c.auth.2", "pending"],
      ["c.auth.1", "approved"],
    ]);
  });

  it("keeps the page's own version when it is newer than the stream's", () => {
    const newer = [auth("c.auth.1", "2025-01-01T10:00:01Z", { status: "declined", updatedAt: "2025-01-01T10:00:09Z" })];
    const merged = mergeLive(newer, [auth("c.auth.1", "2025-01-01T10:00:01Z", { updatedAt: "2025-01-01T10:00:03Z" })]);
    expect(merged).toEqual(newer);
  });
});
