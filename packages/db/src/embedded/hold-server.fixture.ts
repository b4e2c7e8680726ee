// Test fixture: starts the embedded server on argv[2], writes one row, says "ready" and waits to be killed.
import { createDb } from "../db";
import { startEmbeddedPostgres } from "../embedded-postgres";

const server = await startEmbeddedPostgres({ dir: process.argv[2]! });
const db = createDb({ url: server.url, poolSize: 1 });
await db.query("CREATE TABLE IF NOT EXISTS kept (note text)");
await db.query("INSERT INTO kept VALUES ('committed before the kill')");
process.stdout.write("ready\n");
setInterval(() => undefined, 1_000);
