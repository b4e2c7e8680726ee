import { createServer, connect, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "./db";
import { createTestDatabase, type TestDatabase } from "./testing";

/**
 * A TCP forwarder in front of the server that counts the client's turns: the times it sent something after the
 * server had answered it. Statements sent together (pipelined) are one turn; a statement sent once the previous one
 * was answered is one more.
 */
async function turnCountingForwarder(target: URL): Promise<{ server: Server; port: number; turns: () => number }> {
  let turns = 0;
  const server = createServer((client: Socket) => {
    let answeredSinceLastSend = true;
    // The test server listens on a Unix socket only (the URL's host parameter names its directory).
    const socketDir = target.searchParams.get("host");
    const upstream = socketDir
      ? connect({ path: `${socketDir}/.s.PGSQL.${target.port}` })
      : connect(Number(target.port), target.hostname);
    client.on("data", (chunk) => {
      if (answeredSinceLastSend) turns += 1;
      answeredSinceLastSend = false;
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      answeredSinceLastSend = true;
      client.write(chunk);
    });
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    client.on("error", () => undefined);
    upstream.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (typeof address !== "object" || !address) throw new Error("no address");
  return { server, port: address.port, turns: () => turns };
}

let database: TestDatabase;
let forwarder: Awaited<ReturnType<typeof turnCountingForwarder>>;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.query("CREATE TABLE pipelined (id int PRIMARY KEY, n int NOT NULL)");
  await database.db.query("INSERT INTO pipelined VALUES (1, 0)");
  const target = new URL(database.url);
  forwarder = await turnCountingForwarder(target);
  const through = new URL(database.url);
  through.host = `127.0.0.1:${forwarder.port}`;
  through.searchParams.delete("host");
  db = createDb({ url: through.toString(), poolSize: 1 });
  await db.query("SELECT 1"); // the connection's start-up is not counted below
});
afterAll(async () => {
  await db.close();
  await new Promise((resolve) => forwarder.server.close(resolve));
  await database.stop();
});

const n = async () => (await database.db.query<{ n: number }>("SELECT n FROM pipelined WHERE id = 1")).rows[0]!.n;
const bump = (by: number) => ({ text: "UPDATE pipelined SET n = n + $1 WHERE id = 1", values: [by] });

/** The client's turns taken by `work`. */
async function turnsOf(work: () => Promise<unknown>): Promise<number> {
  const before = forwarder.turns();
  await work();
  return forwarder.turns() - before;
}

describe("a transaction's statements sent together", () => {
  it("BEGIN goes with the first statement and a handed-over write with the COMMIT: two turns, not four", async () => {
    const before = await n();
    const turns = await turnsOf(() =>
      db.tx(async (tx) => {
        const { rows } = await tx.query<{ n: number }>("SELECT n FROM pipelined WHERE id = $1 FOR UPDATE", [1]);
        tx.sendWithNext({ text: "UPDATE pipelined SET n = $1 WHERE id = 1", values: [rows[0]!.n + 1] });
      }),
    );
    expect(turns).toBe(2);
    expect(await n()).toBe(before + 1);
  });

  it("a handed-over write goes with the next statement, which sees it", async () => {
    const before = await n();
    const seen = await db.tx(async (tx) => {
      tx.sendWithNext(bump(5));
      return (await tx.query<{ n: number }>("SELECT n FROM pipelined WHERE id = $1", [1])).rows[0]!.n;
    });
    expect(seen).toBe(before + 5);
    expect(await n()).toBe(before + 5);
  });

  it("two writes handed over in a row both commit", async () => {
    const before = await n();
    await db.tx(async (tx) => {
      tx.sendWithNext(bump(1));
      tx.sendWithNext(bump(2));
    });
    expect(await n()).toBe(before + 3);
  });

  it("a handed-over write that fails fails the transaction with its own error, and nothing of it stays", async () => {
    const before = await n();
    const failed = db.tx(async (tx) => {
      await tx.query("UPDATE pipelined SET n = n + 100 WHERE id = $1", [1]);
      tx.sendWithNext({ text: "INSERT INTO pipelined VALUES ($1, $2)", values: [1, 0] });
    });
    await expect(failed).rejects.toMatchObject({ code: "23505", constraint: "pipelined_pkey" });
    expect(await n()).toBe(before);
    // The connection serves the next transaction as usual.
    await db.tx(async (tx) => tx.sendWithNext(bump(1)));
    expect(await n()).toBe(before + 1);
  });

  it("a handed-over write that fails fails the next statement with its own error", async () => {
    const failed = db.tx(async (tx) => {
      tx.sendWithNext({ text: "INSERT INTO pipelined VALUES ($1, $2)", values: [1, 0] });
      await tx.query("SELECT 1 FROM pipelined WHERE id = $1", [1]);
    });
    await expect(failed).rejects.toMatchObject({ code: "23505" });
  });

  it("work that throws before its handed-over write was sent rolls back without sending it", async () => {
    const before = await n();
    const failed = db.tx(async (tx) => {
      await tx.query("UPDATE pipelined SET n = n + 100 WHERE id = $1", [1]);
      tx.sendWithNext(bump(7));
      throw new Error("changed its mind");
    });
    await expect(failed).rejects.toThrow("changed its mind");
    expect(await n()).toBe(before);
  });
});
