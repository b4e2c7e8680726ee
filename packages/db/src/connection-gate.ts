/** What the gate hands out connections from: pg.Pool, or a fake in tests. */
export interface ConnectionSource<C> {
  connect(): Promise<C>;
}

export interface ConnectionGate<C> {
  /**
   * A connection once one of the gate's places is free; `urgent` requests get a freed place before every ordinary one
   * waiting (in arrival order among themselves). Every connection taken must be given back with `release`.
   */
  acquire(urgent?: boolean): Promise<C>;
  /** Gives the place back (after the connection itself went back to its pool) and hands it to the next in line. */
  release(): void;
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

  const connect = (waiter: Waiter<C>) => {
    source.connect().then(waiter.resolve, (error: unknown) => {
      // No connection came (the server is away): the place is free again for the next in line.
      waiter.reject(error);
      release();
    });
  };

  const release = () => {
    const next = urgent.shift() ?? ordinary.shift();
    if (next) connect(next);
    else taken -= 1;
  };

  return {
    acquire(isUrgent = false) {
      return new Promise<C>((resolve, reject) => {
        const waiter = { resolve, reject };
        if (taken < places) {
          taken += 1;
          connect(waiter);
        } else (isUrgent ? urgent : ordinary).push(waiter);
      });
    },
    release,
    waiting: () => ({ urgent: urgent.length, ordinary: ordinary.length }),
  };
}
