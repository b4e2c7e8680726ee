/** In-process wake-ups for requests waiting on a payment's outcome; they poll as well (another replica may move it). */
export interface PaymentWaiters {
  changed(paymentId: string): void;
  /** Resolves when the payment changes in this process, or after `ms`. */
  wait(paymentId: string, ms: number): Promise<void>;
}

export function createPaymentWaiters(): PaymentWaiters {
  const waiting = new Map<string, Set<() => void>>();
  return {
    changed(paymentId) {
      const wakers = waiting.get(paymentId);
      waiting.delete(paymentId);
      for (const wake of wakers ?? []) wake();
    },
    wait(paymentId, ms) {
      return new Promise((resolve) => {
        const wakers = waiting.get(paymentId) ?? new Set();
        waiting.set(paymentId, wakers);
        const done = () => {
          clearTimeout(timer);
          wakers.delete(done);
          if (wakers.size === 0 && waiting.get(paymentId) === wakers) waiting.delete(paymentId);
          resolve();
        };
        const timer = setTimeout(done, Math.max(0, ms));
        timer.unref();
        wakers.add(done);
      });
    },
  };
}
