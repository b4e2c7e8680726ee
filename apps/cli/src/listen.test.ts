import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventMessage } from "../../../test/support/event-message";
import { eventually } from "../../../test/support/eventually";
import { FakeReceiver } from "../../../test/support/fake-receiver";
import { startAllInOne, type AllInOne } from "./all-in-one";
import { captureIo } from "./cli-test-io";
import { runCommand } from "./commands";

const OPERATOR = "operator-token-listen-tests";
const SIGNING_KEY = "listen-default-signing-key-0123456789";
let platform: AllInOne;
const platformHook = new FakeReceiver(); // the default webhook: the platform's own deliveries
const local = new FakeReceiver(); // what `listen` forwards to
let businessId: string;
let env: Record<string, string>;

async function publish(kind: string) {
  const message = eventMessage(businessId, kind, {
    object: "card.authorization",
    card: "c.listen",
    amount: 2_500,
    status: "approved",
  });
  await platform.bus.publish([message]);
  return message.eventId;
}

beforeAll(async () => {
  await platformHook.start();
  await local.start("/webhook");
  local.answerWith({ status: 200, body: { action: "approve" } });
  platform = await startAllInOne({ port: 0, logLevel: "silent", operatorToken: OPERATOR });
  const res = await fetch(`${platform.url}/admin/businesses`, {
    method: "POST",
    headers: { "x-operator-token": OPERATOR, "content-type": "application/json" },
    body: JSON.stringify({ name: "Listen", webhookUrl: platformHook.url, signingKey: SIGNING_KEY }),
  });
  const created = (await res.json()) as { data: { business: { id: string }; testKey: string } };
  businessId = created.data.business.id;
  env = { CARDHOLD_KEY: created.data.testKey, CARDHOLD_URL: platform.url };
  // The default webhook reaches the dispatcher over the bus a moment after the business is created.
  await eventually(async () => {
    const probe = await publish("card.transaction.created");
    await eventually(() => expect(platformHook.byEvent(probe)).toHaveLength(1), 2_000);
  });
});
afterAll(async () => {
  await platform?.stop();
  await platformHook.stop();
  await local.stop();
});

/** Starts `listen`, waits until it is following, and gives a way to stop it. */
async function startListening(args: string[]) {
  const stop = new AbortController();
  const captured = captureIo(env, stop.signal);
  const running = runCommand(["listen", "--interval", "100", ...args], captured.io);
  // --json prints no progress: give it the time to look up the key and the newest event.
  if (args.includes("--json")) await new Promise((r) => setTimeout(r, 1_000));
  else await eventually(() => expect(captured.err()).toContain("ready: waiting for events"));
  return { ...captured, stop: async () => (stop.abort(), running) };
}

describe("cardhold listen", () => {
  it("forwards new events' exact envelope bytes, signed with the default webhook's key, and prints the answers", async () => {
    const before = await publish("card.transaction.created");
    await eventually(() => expect(platformHook.byEvent(before)).toHaveLength(1));
    const listening = await startListening(["--forward-to", local.url]);
    expect(listening.err()).toContain(`forwarding new events of this business to ${local.url}`);
    expect(listening.err()).toMatch(
      /these answers decide nothing; the platform's own delivery to the default webhook wh\.\S+ \(http:\/\/127\.0\.0\.1:\d+\/hook\) decides authorizations/,
    );

    const eventIds = [await publish("card.authorization.request"), await publish("card.authorization.closed")];
    await eventually(() => expect(local.received.length).toBe(2));
    expect(local.byEvent(before)).toHaveLength(0);
    for (const eventId of eventIds) {
      await eventually(() => expect(platformHook.byEvent(eventId)).toHaveLength(1));
      const forwarded = local.byEvent(eventId)[0]!;
      expect(forwarded.raw.equals(platformHook.byEvent(eventId)[0]!.raw)).toBe(true);
      expect(forwarded.headers["service-signature"]).toBe(
        createHmac("sha512", SIGNING_KEY).update(forwarded.raw).digest("hex"),
      );
      expect(forwarded.headers["content-type"]).toBe("application/json");
      expect(forwarded.json.metadata).toEqual({ sentAt: expect.any(String), event: eventId });
    }
    await eventually(() => expect(listening.stdout).toHaveLength(2));
    expect(listening.stdout[0]).toContain(`card.authorization.request  ${eventIds[0]}`);
    expect(listening.stdout[0]).toContain(`→ ${local.url}  ← 200 {"action":"approve"}`);
    expect(await listening.stop()).toBe(0);
    expect(listening.err()).toContain("… 2 events forwarded");
  });

  it("--json: one object per forwarded event; a receiver that is down is reported and listening goes on", async () => {
    local.received.length = 0;
    const down = new FakeReceiver();
    await down.start("/webhook");
    const downUrl = down.url;
    await down.stop();
    const listening = await startListening(["--forward-to", downUrl, "--json", "--event", "card.authorization.update"]);
    const skipped = await publish("card.transaction.created");
    const first = await publish("card.authorization.update");
    const second = await publish("card.authorization.update");
    await eventually(() => expect(listening.stdout).toHaveLength(2));
    const records = listening.stdout.map((line) => JSON.parse(line));
    expect(records.map((r) => r.event)).toEqual([first, second]);
    expect(records[0]).toMatchObject({
      kind: "card.authorization.update",
      forwardedTo: downUrl,
      error: "ECONNREFUSED",
      latencyMs: expect.any(Number),
    });
    expect(JSON.stringify(records)).not.toContain(skipped);
    expect(await listening.stop()).toBe(0);
    expect(listening.stderr).toEqual([]);
  });

  it("--signing-key signs with that key instead", async () => {
    local.received.length = 0;
    const listening = await startListening(["--forward-to", local.url, "--signing-key", "my-local-key"]);
    const eventId = await publish("card.authorization.request");
    await eventually(() => expect(local.byEvent(eventId)).toHaveLength(1));
    const forwarded = local.byEvent(eventId)[0]!;
    expect(forwarded.headers["service-signature"]).toBe(
      createHmac("sha512", "my-local-key").update(forwarded.raw).digest("hex"),
    );
    await listening.stop();
  });

  it("refuses a missing or bad --forward-to (exit 2) and a bad key (exit 1)", async () => {
    const run = async (args: string[], environment = env) => {
      const captured = captureIo(environment);
      return { code: await runCommand(["listen", ...args], captured.io), err: captured.err() };
    };
    expect(await run([])).toMatchObject({ code: 2, err: expect.stringContaining("listen needs --forward-to") });
    expect(await run(["--forward-to", "ftp://x"])).toMatchObject({
      code: 2,
      err: expect.stringContaining("must be an http(s) URL"),
    });
    const bad = await run(["--forward-to", local.url], { ...env, CARDHOLD_KEY: "sk.test.nope" });
    expect(bad.code).toBe(1);
    expect(bad.err).toContain("GET /webhooks?filter=isDefault:true&limit=1 answered 401");
  });
});
