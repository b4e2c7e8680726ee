import { Agent, createServer, request, type ServerResponse } from "node:http";
import { endToEndHeaders, listenOnFreePort } from "./forwarding-hop";
import type { ReceivedEnvelope } from "../support/platform-audit";

export interface PausableForwarder {
  /** Where the platform should deliver. */
  url: string;
  /** The envelopes the receiver behind answered with a 2xx, in the order answered. */
  acknowledged: ReceivedEnvelope[];
  /** How long the receiver behind took to answer each request passed on (ms). */
  answerTimes: number[];
  /** For `ms`, requests are held unanswered and never passed on; when the pause ends their connections are dropped. */
  pause(ms: number): void;
  close(): Promise<void>;
}

/**
 * Sits in front of a webhook receiver (the wallet receiver in the chaos run): passes each delivery on unchanged and
 * records what the receiver acknowledged, and can play a receiver that stalls (answers nothing) for a while.
 */
export async function startPausableForwarder(target: string): Promise<PausableForwarder> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const acknowledged: ReceivedEnvelope[] = [];
  const answerTimes: number[] = [];
  let pausedUntil = 0;
  const held = new Set<ServerResponse>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (Date.now() < pausedUntil) return void held.add(res);
      const body = Buffer.concat(chunks);
      const passedOn = performance.now();
      const out = request(target, { method: req.method, headers: endToEndHeaders(req.headers), agent }, (answer) => {
        const parts: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => parts.push(chunk));
        answer.on("end", () => {
          const status = answer.statusCode ?? 502;
          answerTimes.push(performance.now() - passedOn);
          if (status >= 200 && status < 300) acknowledged.push(JSON.parse(body.toString("utf8")) as ReceivedEnvelope);
          res.writeHead(status, endToEndHeaders(answer.headers)).end(Buffer.concat(parts));
        });
      });
      out.on("error", () => res.destroy());
      out.end(body);
    });
  });
  const port = await listenOnFreePort(server);
  const path = new URL(target).pathname;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    acknowledged,
    answerTimes,
    pause(ms) {
      pausedUntil = Date.now() + ms;
      setTimeout(() => {
        for (const res of held) res.destroy();
        held.clear();
      }, ms).unref();
    },
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
