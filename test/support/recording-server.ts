import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A service's internal endpoint as its caller sees it (an engine's answer intake, a dispatcher's event intake): records
 * each request with its parsed JSON body and answers `status` (changeable between requests) with `answer`.
 */
export interface RecordingServer<Body> {
  url: string;
  received: Array<{ path: string; headers: IncomingHttpHeaders; body: Body }>;
  status: number;
  close(): Promise<void>;
}

export async function recordingServer<Body>(status = 200, answer = "{}"): Promise<RecordingServer<Body>> {
  const received: RecordingServer<Body>["received"] = [];
  const server: Server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString()));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: JSON.parse(text) as Body });
      res.writeHead(recording.status, { "content-type": "application/json" }).end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const recording: RecordingServer<Body> = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    status,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return recording;
}
