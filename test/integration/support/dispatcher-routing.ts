import type pg from "pg";
import { eventually } from "../../support/eventually";

/**
 * Resolves once the event-dispatcher has the test-mode webhook for `url` in its routing table (it learns webhooks
 * from `webhooks.v1`), so an event raised from now on is delivered there.
 */
export async function untilDispatcherRoutesTo(db: pg.Pool | pg.Client, url: string): Promise<void> {
  await eventually(async () => {
    const { rowCount } = await db.query("SELECT 1 FROM dispatcher.webhooks WHERE url = $1 AND mode = 'test'", [url]);
    if (rowCount !== 1) throw new Error(`the dispatcher has no test webhook for ${url} yet`);
  }, 30_000);
}
