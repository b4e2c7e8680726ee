import pg from "pg";

/**
 * Gives a new cluster its WAL segments before any commit needs one. PostgreSQL writes its WAL into segment files
 * (16 MB); when the WAL reaches a segment that does not exist yet, the backend writing it creates the file, fills it
 * with zeroes and syncs it while it holds the WAL write lock, and every commit in flight waits for that. A cluster
 * that has run for a while reuses old segments (a checkpoint renames up to `min_wal_size` of them for reuse), but a
 * new one has none: measured on the all-in-one at 250 authorizations/s (21 KB of WAL each, a new segment every 3 s),
 * each new segment held a dozen commits 20–50 ms (bench/README.md, "Twenty-seventh session").
 *
 * Here the segments are made once, at the cluster's creation, while nothing waits on them: WAL is switched to a new
 * segment `min_wal_size` worth of times, then a checkpoint keeps the finished segments for reuse. Returns how many
 * segments it made (none when the server does not sync its writes: zero-filling costs it nothing then).
 */
export async function preallocateWalSegments(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ segments: number; fsync: string }>(
      `SELECT (SELECT setting::bigint * 1024 * 1024 FROM pg_settings WHERE name = 'min_wal_size')
                / (SELECT setting::bigint FROM pg_settings WHERE name = 'wal_segment_size') AS segments,
              current_setting('fsync') AS fsync`,
    );
    const { segments, fsync } = rows[0]!;
    if (fsync !== "on") return 0;
    for (let i = 0; i < segments; i++) {
      // A switch with no WAL written since the last one does nothing: write a record first.
      await client.query("SELECT pg_logical_emit_message(false, 'cardhold', 'preallocate')");
      await client.query("SELECT pg_switch_wal()");
    }
    await client.query("CHECKPOINT");
    return Number(segments);
  } finally {
    await client.end();
  }
}
