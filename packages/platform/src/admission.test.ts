import { describe, expect, it } from "vitest";
import { createAdmission, QUIET_RECOVERY_MS } from "./admission";

/** A request of `tenant` held until released; `taken` says whether its work has started. */
const holder = (admission: ReturnType<typeof createAdmission>) => (tenant: string) => {
  const held = { taken: false, release: () => {}, answer: undefined as unknown as Promise<string> };
  held.answer = admission.admit(
    undefined,
    () =>
      new Promise<string>((r) => {
        held.taken = true;
        held.release = () => r(tenant);
      }),
    tenant,
  );
  return held;
};
const settle = () => new Promise((r) => setTimeout(r, 0));
/** Releases held requests as they are taken, until every one has answered. */
const releaseAll = async (requests: ReturnType<ReturnType<typeof holder>>[]) => {
  while (requests.some((h) => !h.taken)) {
    for (const h of requests) h.release();
    await settle();
  }
  for (const h of requests) h.release();
  await Promise.all(requests.map((h) => h.answer));
};

describe("admission of new authorization requests", () => {
  it("takes requests up to the limit; the next waits for the first place freed", async () => {
    const admission = createAdmission({ maxInProgress: 2, maxInProgressPerTenant: 2, maxQueuedMs: 5_000 });
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

describe("admission shared between tenants", () => {
  it("keeps a tenant to its limit, so another one's request is taken at once while the first one's wait", async () => {
    const admission = createAdmission({ maxInProgress: 4, maxInProgressPerTenant: 3, maxQueuedMs: 5_000 });
    const hold = holder(admission);
    const stalled = [hold("stalled"), hold("stalled"), hold("stalled"), hold("stalled")];
    await settle();
    expect(stalled.map((h) => h.taken)).toEqual([true, true, true, false]);
    const other = hold("other");
    await settle();
    expect(other.taken).toBe(true);
    expect(admission.state()).toEqual({ inProgress: 4, waiting: 1 });
    other.release();
    await expect(other.answer).resolves.toBe("other");
    await settle();
    expect(stalled[3]!.taken).toBe(false); // a place is free, but the stalled tenant holds its limit
    stalled[0]!.release();
    await settle();
    expect(stalled[3]!.taken).toBe(true);
    for (const h of stalled.slice(1)) h.release();
    await Promise.all(stalled.map((h) => h.answer));
    expect(admission.state()).toEqual({ inProgress: 0, waiting: 0 });
  });

  it("gives a freed place to the oldest request whose tenant is under its limit, passing over one that is not", async () => {
    const admission = createAdmission({ maxInProgress: 3, maxInProgressPerTenant: 2, maxQueuedMs: 5_000 });
    const hold = holder(admission);
    const a = [hold("a"), hold("a")];
    const b = hold("b");
    await settle();
    const aWaiting = hold("a");
    const bWaiting = hold("b");
    await settle();
    expect([aWaiting.taken, bWaiting.taken]).toEqual([false, false]);
    b.release(); // a holds its limit: the place goes to b's request, though a's waited longer
    await settle();
    expect([aWaiting.taken, bWaiting.taken]).toEqual([false, true]);
    a[0]!.release();
    await settle();
    expect(aWaiting.taken).toBe(true);
    for (const h of [a[1]!, aWaiting, bWaiting]) h.release();
    await Promise.all([...a, b, aWaiting, bWaiting].map((h) => h.answer));
    expect(admission.state()).toEqual({ inProgress: 0, waiting: 0 });
  });

  it("refuses a tenant's request that waited its whole budget at its limit, though places were free", async () => {
    const admission = createAdmission({ maxInProgress: 10, maxInProgressPerTenant: 1, maxQueuedMs: 30 });
    const first = holder(admission)("a");
    await expect(admission.admit(Date.now(), async () => "second", "a")).rejects.toMatchObject({
      statusCode: 503,
      code: "platform-overloaded",
    });
    await expect(admission.admit(Date.now(), async () => "b's", "b")).resolves.toBe("b's");
    first.release();
    await first.answer;
    expect(admission.state()).toEqual({ inProgress: 0, waiting: 0 });
  });

  it("limits one tenant to three quarters of the places by default", async () => {
    const admission = createAdmission({ maxInProgress: 8, maxQueuedMs: 5_000 });
    const hold = holder(admission);
    const requests = Array.from({ length: 8 }, () => hold("only"));
    await settle();
    expect(requests.filter((h) => h.taken)).toHaveLength(6);
    for (const h of requests.slice(0, 6)) h.release();
    await settle();
    for (const h of requests.slice(6)) h.release();
    await Promise.all(requests.map((h) => h.answer));
  });
});

/** Admission on the test's clock, its places cut to the fewest by slow reports 100 ms apart; one tenant may take all. */
function shrunkToFewest(maxInProgress: number, minInProgress: number) {
  let clock = 0;
  const admission = createAdmission({
    maxInProgress,
    maxInProgressPerTenant: maxInProgress,
    minInProgress,
    maxQueuedMs: 60_000,
    now: () => clock,
  });
  for (;;) {
    admission.observePlatformMs(1_000);
    if (admission.places() === minInProgress) break;
    clock += 100;
  }
  return { admission, lastSlowAt: clock, setClock: (ms: number) => void (clock = ms) };
}

describe("places that shrink while the platform's own work is slow", () => {
  it("shrinks by a tenth per slow report, one cut per 100 ms, down to the fewest; the next request then waits", async () => {
    let clock = 0;
    const admission = createAdmission({ maxInProgress: 10, minInProgress: 6, maxQueuedMs: 5_000, now: () => clock });
    admission.observePlatformMs(250);
    admission.observePlatformMs(400); // the same moment's: no second cut
    expect(admission.places()).toBe(9);
    for (const at of [100, 200, 300, 400]) {
      clock = at;
      admission.observePlatformMs(150);
    }
    expect(admission.places()).toBe(6); // 9 → 8 → 7 → 6 → not below 6
    const hold = holder(admission);
    const requests = Array.from({ length: 7 }, () => hold("one"));
    await settle();
    // Three quarters of the places now (4 of 6) for one tenant, like three quarters of 10 at full size.
    expect(requests.filter((h) => h.taken)).toHaveLength(4);
    await releaseAll(requests);
  });

  it("grows back by one per as many fast reports as there are places, handing new places to waiting requests", async () => {
    const { admission } = shrunkToFewest(4, 2);
    expect(admission.places()).toBe(2);
    const hold = holder(admission);
    const requests = Array.from({ length: 4 }, () => hold("one"));
    await settle();
    expect(requests.map((h) => h.taken)).toEqual([true, true, false, false]);
    admission.observePlatformMs(100); // not slower than 100 ms: fast
    await settle();
    expect(admission.places()).toBe(2); // one of the two fast reports two places take
    admission.observePlatformMs(5);
    await settle();
    expect(requests.map((h) => h.taken)).toEqual([true, true, true, false]);
    expect(admission.places()).toBe(3);
    for (let i = 0; i < 2; i++) admission.observePlatformMs(5);
    await settle();
    expect(admission.places()).toBe(3);
    admission.observePlatformMs(5);
    await settle();
    expect(admission.places()).toBe(4);
    expect(requests.every((h) => h.taken)).toBe(true);
    for (const h of requests) h.release();
    await Promise.all(requests.map((h) => h.answer));
  });

  it("gives every place back on the first fast report 30 s after the last slow one, to requests waiting too", async () => {
    const { admission, lastSlowAt, setClock } = shrunkToFewest(40, 16);
    expect(admission.places()).toBe(16);
    const hold = holder(admission);
    const requests = Array.from({ length: 20 }, () => hold("one"));
    await settle();
    expect(requests.filter((h) => h.taken)).toHaveLength(16);
    setClock(lastSlowAt + 50);
    admission.observePlatformMs(300); // too soon after the last cut to cut again, but slow: the quiet starts later
    setClock(lastSlowAt + 50 + QUIET_RECOVERY_MS - 1);
    admission.observePlatformMs(5);
    expect(admission.places()).toBe(16); // not quiet long enough: one fast report of a window of 16
    setClock(lastSlowAt + 50 + QUIET_RECOVERY_MS);
    admission.observePlatformMs(5);
    await settle();
    expect(admission.places()).toBe(40);
    expect(requests.every((h) => h.taken)).toBe(true);
    await releaseAll(requests);
  });

  it("keeps the places shrunk while slow reports keep coming, however many fast ones come between", async () => {
    let clock = 0;
    const admission = createAdmission({ maxInProgress: 40, minInProgress: 16, now: () => clock });
    for (let at = 0; at < 60_000; at += 100) {
      clock = at;
      admission.observePlatformMs(at % 5_000 === 0 ? 300 : 5); // one slow report every 5 s, 49 fast ones between
    }
    // A cut of a tenth every 5 s against one place per window of fast reports: about 20 places, never all 40.
    expect(admission.places()).toBeLessThan(25);
  });

  it("keeps every place while the platform is fast, however long the work it admitted takes", async () => {
    const admission = createAdmission({ maxInProgress: 8 });
    for (let i = 0; i < 20; i++) admission.observePlatformMs(3);
    expect(admission.places()).toBe(8);
    await expect(
      admission.admit(undefined, () => new Promise<string>((r) => setTimeout(() => r("slow receiver"), 150))),
    ).resolves.toBe("slow receiver");
    expect(admission.places()).toBe(8);
  });
});
