import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RoundRobinProxy {
  url: string;
  close(): Promise<void>;
}

/** How long an upstream that refused a connection is passed over. */
const REFUSED_PAUSE_MS = 500;

/**
 * The load balancer of the chaos run (what nginx or an ALB does in front of several instances): each request goes to
 * the next upstream in turn; one that refuses the connection (a stopped instance) is passed over and the request
 * tried on the next, which is safe because the refused one never saw it. A request cut off after it reached an
 * upstream answers 502, as a real balancer's does.
 */
export async function startRoundRobinProxy(upstreams: string[]): Promise<RoundRobinProxy> {
  // An idle connection is dropped here after 30 s, before the gateway's 65 s (KEEP_ALIVE_TIMEOUT_MS), as a real
  // balancer's idle timeout is set below its upstreams': a request is never sent on a connection being closed.
  const agent = new Agent({ keepAlive: true, maxSockets: 512, timeout: 30_000 });
  const refusedUntil = new Map<string, number>();
  let turn = 0;

  const order = () => {
    const start = turn++ % upstreams.length;
    const rotated = [...upstreams.slice(start), ...upstreams.slice(0, start)];
    const now = Date.now();
    return [
      ...rotated.filter((u) => (refusedUntil.get(u) ?? 0) <= now),
      ...rotated.filter((u) => (refusedUntil.get(u) ?? 0) > now),
    ];
  };

  const forward = (upstream: string, req: IncomingMessage, body: Buffer, res: ServerResponse) =>
    new Promise<"done" | "refused">((resolve) => {
      const out = request(upstream + req.url, { method: req.method, headers: req.headers, agent }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on("end", () => resolve("done"));
        answer.on("error", () => {
          res.destroy();
          resolve("done");
        });
      });
      out.on("error", (error: NodeJS.ErrnoException) => {
        if (error.code === "ECONNREFUSED" && !res.headersSent) return resolve("refused");
        if (!res.headersSent)
          res
            .writeHead(502, { "content-type": "application/json" })
            .end('{"statusCode":502,"code":"upstream-cut-off","message":"upstream cut off"}');
        else res.destroy();
        resolve("done");
      });
      out.end(body);
    });

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on(
      "end",
      () =>
        void (async () => {
          const body = Buffer.concat(chunks);
          for (const upstream of order()) {
            if ((await forward(upstream, req, body, res)) === "done") return;
            refusedUntil.set(upstream, Date.now() + REFUSED_PAUSE_MS);
          }
          res
            .writeHead(503, { "content-type": "application/json" })
            .end('{"statusCode":503,"code":"no-upstream","message":"no upstream is up"}');
        })(),
    );
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
