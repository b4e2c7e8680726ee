import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventMessage } from "../../../test/support/event-message";
import { eventually } from "../../../test/support/eventually";
import { FakeReceiver } from "../../../test/support/fake-receiver";
import { startAllInOne, type AllInOne } from "./all-in-one";
import { captureIo } from "./cli-test-io";
import { runCommand } from "./commands";

const OPERATOR = "operator-token-events-tail-tests";
let platform: AllInOne;
const hook = new FakeReceiver();
let businessId: string;
let env: Record<string, string>;

async function publish(kind: string) {
  const message = eventMessage(businessId, kind, { object: "card.authorization", amount: 100 });
  await platform.bus.publish([message]);
  return message;
}

async function listed(): Promise<{ id: string }[]> {
  const res = await fetch(`${platform.url}/events?limit=100`, {
    headers: { authorization: `Bearer ${env.CARDHOLD_KEY}` },
  });
  return ((await res.json()) as { data: { id: string }[] }).data;
}

const published: { eventId: string; resourceId: string; kind: string }[] = [];

beforeAll(async () => {
  await hook.start();
  platform = await startAllInOne({ port: 0, logLevel: "silent", operatorToken: OPERATOR });
  const res = await fetch(`${platform.url}/admin/businesses`, {
    method: "POST",
    headers: { "x-operator-token": OPERATOR, "content-type": "application/json" },
    body: JSON.stringify({ name: "Tail", webhookUrl: hook.url }),
  });
  const created = (await res.json()) as { data: { business: { id: string }; testKey: string } };
  businessId = created.data.business.id;
  env = { CARDHOLD_KEY: created.data.testKey, CARDHOLD_URL: platform.url };
  for (const kind of ["card.authorization.request", "card.transaction.created", "card.authorization.closed"]) {
    const message = await publish(kind);
    published.push({ eventId: message.eventId, resourceId: message.resourceId, kind });
    await eventually(async () => expect((await listed()).map((e) => e.id)).toContain(message.eventId));
  }
});
afterAll(async () => {
  await platform?.stop();
  await hook.stop();
});

const tail = async (args: string[], signal?: AbortSignal, environment = env) => {
  const captured = captureIo(environment, signal);
  const code = await runCommand(["events", "tail", ...args], captured.io);
  return { code, ...captured };
};

describe("cardhold events tail", () => {
  it("prints the latest events oldest first, one readable line each, and a count on stderr", async () => {
    const r = await tail(["--limit", "2"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toHaveLength(2);
    const [second, third] = published.slice(1);
    expect(r.stdout[0]).toMatch(
      new RegExp(
        `^\\d{4}-\\d\\d-\\d\\dT.*Z\\s+card\\.transaction\\.created\\s+${second!.eventId}\\s+${second!.resourceId}\\s+\\w+`,
      ),
    );
    expect(r.stdout[1]).toContain(third!.eventId);
    expect(r.err()).toContain("… 2 events");
  });

  it("--event keeps one kind; --json prints the records as GET /events gives them", async () => {
    const r = await tail(["--event", "card.transaction.created", "--json"]);
    expect(r.code).toBe(0);
    const records = r.stdout.map((line) => JSON.parse(line));
    expect(records).toEqual([
      expect.objectContaining({
        id: published[1]!.eventId,
        object: "event",
        event: "card.transaction.created",
        resource: published[1]!.resourceId,
      }),
    ]);
    expect(r.stderr).toEqual([]);
  });

  it("--follow prints new events as they come, in order, until stopped", async () => {
    const stop = new AbortController();
    const captured = captureIo(env, stop.signal);
    const running = runCommand(["events", "tail", "--follow", "--limit", "1", "--interval", "100"], captured.io);
    await eventually(() => expect(captured.stdout).toHaveLength(1));
    expect(captured.stdout[0]).toContain(published[2]!.eventId);
    const fresh = [await publish("card.authorization.update"), await publish("card.transaction.created")];
    await eventually(() => expect(captured.stdout).toHaveLength(3));
    expect(captured.stdout[1]).toContain(fresh[0]!.eventId);
    expect(captured.stdout[2]).toContain(fresh[1]!.eventId);
    stop.abort();
    expect(await running).toBe(0);
    expect(captured.err()).toContain("… 2 new events while following");
  });

  it("exits 1 with the API's answer on a bad key, 2 on a bad option", async () => {
    const bad = await tail([], undefined, { ...env, CARDHOLD_KEY: "sk.test.not-a-key" });
    expect(bad.code).toBe(1);
    expect(bad.err()).toMatch(/GET \/events\?limit=20 answered 401/);
    const usage = await tail(["--limit", "many"]);
    expect(usage.code).toBe(2);
    expect(usage.err()).toContain("--limit must be a whole number");
    expect((await tail(["--help"])).out()).toContain("usage: cardhold events tail");
  });
});
