/**
 * The idle wait of a polling worker (outbox relay, delivery worker): sleeps `ms` (or what `ms()` says at each sleep),
 * or less when someone calls wake() because there is work now. A wake that comes while the worker is busy is
 * remembered, so the next sleep returns at once instead of losing it.
 */
export function createWakeableSleep(ms: number | (() => number)) {
  let wakeUp: (() => void) | undefined;
  let woken = false;
  return {
    sleep: () =>
      new Promise<void>((resolve) => {
        if (woken) {
          woken = false;
          resolve();
          return;
        }
        const timer = setTimeout(
          () => {
            wakeUp = undefined;
            resolve();
          },
          typeof ms === "function" ? ms() : ms,
        );
        wakeUp = () => {
          wakeUp = undefined;
          clearTimeout(timer);
          resolve();
        };
      }),
    wake: () => {
      if (wakeUp) wakeUp();
      else woken = true;
    },
  };
}
