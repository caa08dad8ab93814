/** A timer promise that an AbortSignal cancels: retry backoffs and rate-limit waits must not outlive a cancelled run. */

/** Resolves after `milliseconds`; rejects with the signal's reason as soon as `signal` aborts (or at once if it has). */
export function abortableSleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, milliseconds);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
