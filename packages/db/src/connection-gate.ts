/** Where the gate's connections come from and go back to: pg.Pool, or a fake in tests. */
export interface ConnectionSource<C> {
  connect(): Promise<C>;
  /** Gives a connection back to the source; `destroy` when it broke and must not be used again. */
  release(connection: C, destroy: boolean): void;
}

export interface ConnectionGate<C> {
  /**
   * A connection once one of the gate's places is free; `urgent` requests get a freed place before every ordinary one
   * waiting (in arrival order among themselves). Every connection taken must be given back with `release`.
   */
  acquire(urgent?: boolean): Promise<C>;
  /** Gives the connection back: straight to the next in line when one waits (unless it broke), else to the source. */
  release(connection: C, broken?: boolean): void;
  /** Requests waiting for a place now, urgent and ordinary. */
  waiting(): { urgent: number; ordinary: number };
}

interface Waiter<C> {
  resolve(connection: C): void;
  reject(error: unknown): void;
}

/**
 * At most `places` connections out of `source` at once, with a queue in front that lets urgent work go first.
 * pg.Pool's own queue is first come, first served: a timeout default due now waited behind every new authorization's
 * transaction (the chaos run on a slow hour: a median 209 ms for a connection, the decision late). With the gate in
 * front the pool never queues, so the order of this queue is the order in which connections are handed out.
 */
export function createConnectionGate<C>(source: ConnectionSource<C>, places: number): ConnectionGate<C> {
  let taken = 0;
  const urgent: Waiter<C>[] = [];
  const ordinary: Waiter<C>[] = [];
  const nextInLine = () => urgent.shift() ?? ordinary.shift();

  const connect = () =>
    source.connect().catch((error: unknown) => {
      // No connection came (the server is away): the place goes to the next in line, which tries for itself.
      const next = nextInLine();
      if (next) connect().then(next.resolve, next.reject);
      else taken -= 1;
      throw error;
    });

  return {
    acquire(isUrgent = false) {
      if (taken < places) {
        taken += 1;
        return connect();
      }
      return new Promise<C>((resolve, reject) => (isUrgent ? urgent : ordinary).push({ resolve, reject }));
    },
    release(connection, broken = false) {
      const next = nextInLine();
      if (next && !broken) return next.resolve(connection);
      source.release(connection, broken);
      if (next) connect().then(next.resolve, next.reject);
      else taken -= 1;
    },
    waiting: () => ({ urgent: urgent.length, ordinary: ordinary.length }),
  };
}
