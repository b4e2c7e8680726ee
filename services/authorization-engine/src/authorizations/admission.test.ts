import { describe, expect, it } from "vitest";
import { createAdmission } from "./admission";

describe("admission of new authorization requests", () => {
  it("takes requests up to the limit; the next waits for the first place freed", async () => {
    const admission = createAdmission({ maxInProgress: 2, maxQueuedMs: 5_000 });
    const release: (() => void)[] = [];
    const hold = (name: string) =>
      admission.admit(undefined, () => new Promise<string>((r) => release.push(() => r(name))));
    const first = hold("first");
    const second = hold("second");
    const third = hold("third");
    await new Promise((r) => setTimeout(r, 20));
    expect(release).toHaveLength(2); // the third is not taken yet
    expect(admission.state()).toEqual({ inProgress: 2, waiting: 1 });
    release[0]!();
    await expect(first).resolves.toBe("first");
    await new Promise((r) => setTimeout(r, 0));
    expect(release).toHaveLength(3);
    release[1]!();
    release[2]!();
    await expect(Promise.all([second, third])).resolves.toEqual(["second", "third"]);
    expect(admission.state()).toEqual({ inProgress: 0, waiting: 0 });
    await expect(admission.admit(undefined, async () => "room again")).resolves.toBe("room again");
  });

  it("refuses with 503 platform-overloaded a request whose queueing budget ran out while it waited for a place", async () => {
    let shed = 0;
    const admission = createAdmission({ maxInProgress: 1, maxQueuedMs: 50, onShed: () => void (shed += 1) });
    let release = () => {};
    const held = admission.admit(undefined, () => new Promise<string>((r) => (release = () => r("held"))));
    const started = Date.now();
    await expect(admission.admit(Date.now(), async () => "too late")).rejects.toMatchObject({
      statusCode: 503,
      code: "platform-overloaded",
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
    expect(shed).toBe(1);
    release();
    await expect(held).resolves.toBe("held");
    await expect(admission.admit(Date.now(), async () => "free again")).resolves.toBe("free again");
  });

  it("refuses a request that waited too long before it arrived; a failed one frees its place", async () => {
    const admission = createAdmission({ maxInProgress: 1, maxQueuedMs: 1_000, now: () => 10_000 });
    await expect(admission.admit(8_999, async () => "late")).rejects.toMatchObject({ statusCode: 503 });
    await expect(admission.admit(9_000, async () => "on time")).resolves.toBe("on time");
    await expect(admission.admit(undefined, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(admission.admit(undefined, async () => "free")).resolves.toBe("free");
  });

  it("refuses, once it has its database connection, a request that waited too long for it; counts it as shed", async () => {
    let shed = 0;
    const admission = createAdmission({ maxQueuedMs: 500, onShed: () => void (shed += 1) });
    expect(() => admission.ensureInTime(1_000, 1_500)).not.toThrow();
    expect(() => admission.ensureInTime(undefined, 99_999)).not.toThrow();
    expect(() => admission.ensureInTime(1_000, 1_501)).toThrow(
      expect.objectContaining({ statusCode: 503, code: "platform-overloaded" }),
    );
    expect(shed).toBe(1);
  });
});
