import type pg from "pg";
import type { Row } from "./db";
import type { Write } from "./write-batch";

type Send = <R extends Row>(text: string, values?: unknown[]) => Promise<pg.QueryResult<R>>;

/**
 * pg sends a client's statements one at a time, each once the previous one is answered, unless the client is in
 * pipeline mode: then each goes out as soon as it is asked for. A transaction turns it on for its life so that BEGIN
 * goes out with its first statement, and its last write with its COMMIT: two round trips fewer, and the rows the
 * transaction locked are held one round trip (and one turn of the event loop) less. Each statement still carries its
 * own Sync, so a failed one aborts the transaction as before and its COMMIT rolls back.
 */
export function setPipelined(client: pg.PoolClient, on: boolean): void {
  (client as unknown as { pipeline: boolean }).pipeline = on;
}

export interface PipelinedStatements {
  /** Sends a statement nobody waits for now (BEGIN): its failure fails the next statement sent with `send`. */
  sendUnawaited(text: string): void;
  /**
   * Keeps a write whose result nobody reads until the next statement, which it goes out with: a later statement, or
   * the COMMIT. Its failure fails that statement (and so the transaction). A second one sends the first at once.
   */
  handOver(write: Write): void;
  /** Sends what was handed over, then this statement; resolves once all of them are answered. */
  send<R extends Row>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
  /** Waits for whatever is still unanswered (the transaction is ending with an error) and forgets what was kept. */
  settle(): Promise<void>;
}

export function pipelinedStatements(send: Send): PipelinedStatements {
  let unanswered: Array<Promise<unknown>> = [];
  let handedOver: Write | undefined;
  const sendUnawaited = (text: string, values?: unknown[]) => {
    const answer = send(text, values);
    // Read by the next `send` (or `settle`); until then it must not count as an unhandled rejection.
    answer.catch(() => undefined);
    unanswered.push(answer);
  };
  return {
    sendUnawaited,
    handOver(write) {
      // Two in a row: the first goes now, still without waiting for its answer.
      if (handedOver) sendUnawaited(handedOver.text, handedOver.values);
      handedOver = write;
    },
    async send<R extends Row>(text: string, values?: unknown[]) {
      if (handedOver) sendUnawaited(handedOver.text, handedOver.values);
      handedOver = undefined;
      // Most statements follow an answered one: nothing to wait for beside their own answer.
      if (unanswered.length === 0) return send<R>(text, values);
      const earlier = unanswered;
      unanswered = [];
      const answer = send<R>(text, values);
      const settled = await Promise.allSettled([...earlier, answer]);
      // The first failure is the cause: the statements after it only found the transaction aborted.
      const failure = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
      if (failure) throw failure.reason;
      return answer;
    },
    async settle() {
      handedOver = undefined;
      const earlier = unanswered;
      unanswered = [];
      await Promise.allSettled(earlier);
    },
  };
}
