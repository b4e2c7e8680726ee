/**
 * The idle wait of a polling worker (outbox relay, delivery worker): sleeps `ms`, or less when someone calls
 * wake() because there is work now.
 */
export function createWakeableSleep(ms: number) {
  let wakeUp: (() => void) | undefined;
  return {
    sleep: () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      }),
    wake: () => wakeUp?.(),
  };
}
