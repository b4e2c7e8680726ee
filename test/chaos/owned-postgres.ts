import { startEmbeddedPostgres, type EmbeddedPostgres } from "@cardhold/db";
import { join } from "node:path";
import { pidFromFile, processTree } from "../../bench/support/process-cpu";
import { killPostgresServer } from "../support/all-in-one-process";

export interface OwnedPostgres {
  /** The application database's URL (a Unix socket in the server's directory: the same across restarts). */
  url: string;
  /** Another database of the same server. */
  urlFor(database: string): string;
  /** The server's processes (postmaster and backends) now. */
  pids(): number[];
  /** SIGKILLs the postmaster and its children: no shutdown, the next start recovers from the WAL. */
  killHard(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A PostgreSQL server of the run's own, from the npm packages the all-in-one uses, durable (every commit waits for
 * the disk), in `dir`. The chaos run kills it hard and starts it again; the machine's server is never touched.
 */
export async function startOwnedPostgres(dir: string): Promise<OwnedPostgres> {
  let server: EmbeddedPostgres = await startEmbeddedPostgres({ dir, settings: { max_connections: 400 } });
  const url = server.url;
  return {
    url,
    urlFor: (database) => server.urlFor(database),
    pids: () => {
      const postmaster = pidFromFile(join(dir, "cluster", "postmaster.pid"));
      return postmaster ? processTree(postmaster) : [];
    },
    async killHard() {
      const postmaster = pidFromFile(join(dir, "cluster", "postmaster.pid"));
      if (postmaster) await killPostgresServer(postmaster);
    },
    async start() {
      server = await startEmbeddedPostgres({ dir, settings: { max_connections: 400 } });
      if (server.url !== url) throw new Error(`the restarted server's URL changed: ${server.url} (was ${url})`);
    },
    stop: () => server.stop(),
  };
}
