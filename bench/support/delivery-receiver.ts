/**
 * The delivery benchmark's receiver, in its own process so its CPU is not counted as the platform's: answers every
 * delivery 200 at once and reports to its parent (IPC), every 50 ms, which events arrived and when (ms since the
 * epoch, sub-millisecond).
 */
import { createServer } from "node:http";

const now = () => performance.timeOrigin + performance.now();
let arrived: [string, number][] = [];

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const at = now();
    const id = (JSON.parse(Buffer.concat(chunks).toString()) as { metadata: { event: string } }).metadata.event;
    arrived.push([id, at]);
    res.writeHead(200, { "content-type": "application/json" }).end('{"code":"success"}');
  });
});

server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  process.send!({ url: `http://127.0.0.1:${port}/hook` });
});

setInterval(() => {
  if (arrived.length === 0) return;
  process.send!({ arrived });
  arrived = [];
}, 50).unref();

process.on("disconnect", () => process.exit(0));
