import { createServer, type IncomingHttpHeaders, type Server } from "node:http";

export interface ReceivedRequest {
  at: number;
  path: string;
  headers: IncomingHttpHeaders;
  /** The exact bytes received. */
  raw: Buffer;
  json: any;
}

export interface Answer {
  status: number;
  body?: unknown;
  delayMs?: number;
  headers?: Record<string, string>;
}

/**
 * A webhook receiver for tests: records every request's raw bytes and headers; its answer (status, body, delay)
 * can be changed at any time, globally or per request by a function.
 */
export class FakeReceiver {
  readonly received: ReceivedRequest[] = [];
  /** The most requests it was answering at once (received, not yet answered). */
  mostAtOnce = 0;
  private answering = 0;
  private answer: (req: ReceivedRequest) => Answer = () => ({ status: 200, body: { code: "success" } });
  private server?: Server;
  url = "";

  answerWith(answer: Answer | ((req: ReceivedRequest) => Answer)): void {
    this.answer = typeof answer === "function" ? answer : () => answer;
  }

  byEvent(eventId: string): ReceivedRequest[] {
    return this.received.filter((r) => r.json?.metadata?.event === eventId);
  }

  async start(path = "/hook"): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const raw = Buffer.concat(chunks);
        let json: unknown;
        try {
          json = JSON.parse(raw.toString("utf8"));
        } catch {
          json = undefined;
        }
        const request: ReceivedRequest = { at: Date.now(), path: req.url ?? "", headers: req.headers, raw, json };
        this.received.push(request);
        const answer = this.answer(request);
        this.answering += 1;
        this.mostAtOnce = Math.max(this.mostAtOnce, this.answering);
        const send = () => {
          this.answering -= 1;
          if (res.destroyed) return;
          res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
          res.end(answer.body === undefined ? "" : JSON.stringify(answer.body));
        };
        if (answer.delayMs) setTimeout(send, answer.delayMs);
        else send();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}${path}`;
    return this.url;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}
