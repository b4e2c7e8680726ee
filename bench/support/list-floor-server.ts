/**
 * The floor under a list request (bench/list-query.bench.ts --floor): a bare node:http server in its own process
 * that runs a registered SQL text over one pg connection and answers its rows as JSON — HTTP in, one statement, HTTP
 * out, with no key check, routing, validation, request log or record mapping. Forked with the database URL; the
 * parent registers each query by IPC ({ name, text, values }) and reads it at GET /<name>.
 */
import { createServer } from "node:http";
import pg from "pg";

const client = new pg.Client({ connectionString: process.argv[2] });
await client.connect();
const queries = new Map<string, { text: string; values: unknown[] }>();

process.on("message", (message: { name: string; text: string; values: unknown[] }) => {
  queries.set(message.name, { text: message.text, values: message.values });
  process.send!({ registered: message.name });
});

const server = createServer((req, res) => {
  const query = queries.get(decodeURIComponent((req.url ?? "/").slice(1)));
  if (!query) return void res.writeHead(404).end();
  client.query(query.text, query.values).then(
    ({ rows }) => {
      const body = JSON.stringify({ data: rows });
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
    },
    () => void res.writeHead(500).end(),
  );
});
server.listen(0, "127.0.0.1", () => process.send!({ port: (server.address() as { port: number }).port }));
process.on("disconnect", () => {
  server.close();
  void client.end();
});
