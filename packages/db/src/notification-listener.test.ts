import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "./testing";
import { listenForNotifications } from "./notification-listener";

let server: TestDatabase;
beforeAll(async () => {
  server = await createTestDatabase();
});
afterAll(async () => {
  await server?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(condition: () => boolean, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await sleep(5);
  }
}

describe("a notification listener", () => {
  it("hears each NOTIFY on its channel, says when it lost and regained its LISTEN, and hears again after", async () => {
    let calls = 0;
    const listener = listenForNotifications({
      url: server.url,
      applicationName: "listener-under-test",
      channel: "things_outbox",
      onNotify: () => void calls++,
      retryMs: 50,
    });
    await until(() => listener.listening());
    expect(calls).toBe(1); // established: whatever was sent before may have been missed

    await server.db.query("SELECT pg_notify('other_channel', ''), pg_notify('things_outbox', '')");
    await until(() => calls === 2);

    await server.db.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'listener-under-test'",
    );
    await until(() => !listener.listening());
    expect(calls).toBe(3); // lost: whoever relies on it polls until it is back
    await until(() => listener.listening());
    const afterReconnect = calls; // back: what was sent meanwhile may have been missed
    expect(afterReconnect).toBe(4);
    await server.db.query("NOTIFY things_outbox");
    await until(() => calls === afterReconnect + 1);

    await listener.close();
    expect(listener.listening()).toBe(false);
    await server.db.query("NOTIFY things_outbox");
    await sleep(100);
    expect(calls).toBe(afterReconnect + 1);
  });
});
