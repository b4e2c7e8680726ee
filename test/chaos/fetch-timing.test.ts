import { createServer } from "node:http";
import { expect, it } from "vitest";
import { httpJson } from "../support/crash-load";
import { recordFetchTimes } from "./fetch-timing";
import { listenOnFreePort } from "./forwarding-hop";

it("records when a load's request was queued and when it went on a connection, and nothing for others", async () => {
  const server = createServer((_req, res) => res.end("ok"));
  const port = await listenOnFreePort(server);
  const recorded = recordFetchTimes();
  try {
    const before = Date.now();
    const call = httpJson(
      () => `http://127.0.0.1:${port}`,
      () => "key",
    );
    await call("POST", "/", {}, "t-1");
    await call("GET", "/");
    const times = recorded.timesOf("t-1");
    expect(times.createdAt).toBeGreaterThanOrEqual(before);
    expect(times.headersSentAt).toBeGreaterThanOrEqual(times.createdAt!);
    expect(recorded.timesOf("")).toEqual({});
  } finally {
    recorded.stop();
    server.close();
  }
});
