import { describe, expect, it } from "vitest";
import { createAdmission } from "./admission";

describe("admission of new authorization requests", () => {
  it("takes requests up to the limit in progress and refuses the next at once with 503 platform-overloaded", async () => {
    let shed = 0;
    const admission = createAdmission({ maxInProgress: 2, onShed: () => void (shed += 1) });
    const release: (() => void)[] = [];
    const hold = () => admission.admit(undefined, () => new Promise<string>((r) => release.push(() => r("taken"))));
    const first = hold();
    const second = hold();
    await expect(hold()).rejects.toMatchObject({ statusCode: 503, code: "platform-overloaded" });
    expect(shed).toBe(1);
    release.forEach((r) => r());
    await expect(Promise.all([first, second])).resolves.toEqual(["taken", "taken"]);
    await expect(admission.admit(undefined, async () => "room again")).resolves.toBe("room again");
  });

  it("refuses a request that waited too long before it arrived; a failed one frees its place", async () => {
    const admission = createAdmission({ maxInProgress: 1, maxQueuedMs: 1_000, now: () => 10_000 });
    await expect(admission.admit(8_999, async () => "late")).rejects.toMatchObject({ statusCode: 503 });
    await expect(admission.admit(9_000, async () => "on time")).resolves.toBe("on time");
    await expect(admission.admit(undefined, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(admission.admit(undefined, async () => "free")).resolves.toBe("free");
  });
});
