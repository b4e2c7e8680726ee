import { pino } from "pino";
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createDecisionLateness } from "./decision-lateness";

function lateness() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: "warn" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const registry = new Registry();
  return { lines, registry, lateness: createDecisionLateness(registry, logger) };
}

describe("decision lateness", () => {
  it("logs a decision applied more than 250 ms past its deadline, with how late its transaction started", async () => {
    const { lines, lateness: l } = lateness();
    const now = Date.now();
    l.applied("deadline-sweeper", new Date(now - 400), { id: "c.auth.late", startedAt: now - 100 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: "decision applied late",
      authorizationId: "c.auth.late",
      appliedBy: "deadline-sweeper",
      startedLateMs: 300,
    });
    expect(lines[0]!.lateMs).toBeGreaterThanOrEqual(400);
    expect(lines[0]).not.toHaveProperty("connectionWaitMs");
  });

  it("splits a late decision's time into waiting for a connection and its transaction, when it knows both", async () => {
    const { lines, lateness: l } = lateness();
    const now = Date.now();
    l.applied("waiting-request", new Date(now - 400), {
      id: "c.auth.slow",
      startedAt: now - 350,
      inTransactionAt: now - 200,
    });
    expect(lines[0]).toMatchObject({ startedLateMs: 50, connectionWaitMs: 150 });
    expect(lines[0]).not.toHaveProperty("queuedMs");
    expect(lines[0]!.transactionMs).toBeGreaterThanOrEqual(200);
  });

  it("tells the wait for its group's turn apart from the wait for a connection", async () => {
    const { lines, lateness: l } = lateness();
    const now = Date.now();
    l.applied("waiting-request", new Date(now - 400), {
      id: "c.auth.queued",
      startedAt: now - 350,
      turnAt: now - 250,
      inTransactionAt: now - 200,
    });
    expect(lines[0]).toMatchObject({ startedLateMs: 50, queuedMs: 100, connectionWaitMs: 50 });
  });

  it("counts a decision within 250 ms of its deadline in the histogram only", async () => {
    const { lines, registry, lateness: l } = lateness();
    const now = Date.now();
    l.applied("waiting-request", new Date(now - 60), { id: "c.auth.ok", startedAt: now - 10 });
    l.applied("answer", null, { id: "c.auth.unasked", startedAt: now });
    expect(lines).toHaveLength(0);
    const metric = await registry.getSingleMetricAsString("authorization_decision_lateness_seconds");
    expect(metric).toContain('authorization_decision_lateness_seconds_count{applied_by="waiting-request"} 1');
    expect(metric).toContain('authorization_decision_lateness_seconds_count{applied_by="answer"} 0');
  });
});
