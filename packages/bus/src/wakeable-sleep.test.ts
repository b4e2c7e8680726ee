import { describe, expect, it } from "vitest";
import { createWakeableSleep } from "./wakeable-sleep";

describe("wakeable sleep", () => {
  it("sleeps the full time without a wake", async () => {
    const idle = createWakeableSleep(50);
    const started = Date.now();
    await idle.sleep();
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it("returns early when woken during the sleep", async () => {
    const idle = createWakeableSleep(5_000);
    const started = Date.now();
    setTimeout(idle.wake, 10);
    await idle.sleep();
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("remembers a wake that came while the worker was busy", async () => {
    const idle = createWakeableSleep(5_000);
    idle.wake();
    const started = Date.now();
    await idle.sleep();
    expect(Date.now() - started).toBeLessThan(100);
    const second = Date.now();
    setTimeout(idle.wake, 30);
    await idle.sleep();
    expect(Date.now() - second).toBeGreaterThanOrEqual(25);
  });

  it("works out each sleep's length when given a function", async () => {
    let next = 200;
    const idle = createWakeableSleep(() => next);
    let started = Date.now();
    await idle.sleep();
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    next = 20;
    started = Date.now();
    await idle.sleep();
    expect(Date.now() - started).toBeLessThan(150);
  });
});
