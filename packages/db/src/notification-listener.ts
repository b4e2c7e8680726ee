import pg from "pg";

export interface NotificationListener {
  /** Whether the LISTEN is in place now (connected, and not lost since): notifications on the channel arrive. */
  listening(): boolean;
  close(): Promise<void>;
}

export interface ListenOptions {
  url: string;
  applicationName?: string;
  channel: string;
  /**
   * A notification came, or the LISTEN was lost or (re)established: anything sent while it was down may have been
   * missed, and until it is back nothing is heard (a caller that relies on it polls meanwhile).
   */
  onNotify(): void;
  /** First wait before connecting again after the connection broke (doubling to 10 s while it fails). */
  retryMs?: number;
}

const MAX_RETRY_MS = 10_000;

/**
 * A connection of its own that LISTENs on one channel (PostgreSQL's NOTIFY), connected again whenever it breaks.
 * While it is down nothing is heard: a caller that relies on it keeps a poll for that time (see `listening`).
 */
export function listenForNotifications(opts: ListenOptions): NotificationListener {
  let client: pg.Client | undefined;
  let listening = false;
  let closed = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryMs = opts.retryMs ?? 1_000;

  const lost = (broken: pg.Client) => {
    if (client !== broken) return;
    client = undefined;
    listening = false;
    broken.end().catch(() => undefined);
    if (closed) return;
    opts.onNotify();
    retryTimer = setTimeout(() => void connect(), retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
  };

  const connect = async () => {
    const next = new pg.Client({ connectionString: opts.url, application_name: opts.applicationName });
    client = next;
    next.on("error", () => lost(next));
    next.on("end", () => lost(next));
    next.on("notification", (n) => {
      if (n.channel === opts.channel) opts.onNotify();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(opts.channel)}`);
      if (closed || client !== next) return void next.end().catch(() => undefined);
      listening = true;
      retryMs = opts.retryMs ?? 1_000;
      opts.onNotify();
    } catch {
      lost(next);
    }
  };

  void connect();
  return {
    listening: () => listening,
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      listening = false;
      const last = client;
      client = undefined;
      await last?.end().catch(() => undefined);
    },
  };
}
