/** How a long-running server command (`rllm serve`, `rllm gateway`, `rllm sandbox serve`) learns it should stop: a signal, or its parent gone. */

/** Why a server stops. */
export type StopReason = "SIGINT" | "SIGTERM" | "parent-exit";

// How often the parent is looked for. `process.ppid` is read afresh on each access, so a check is one syscall.
const parentCheckMs = 500;

/**
 * Resolves on Ctrl-C, SIGTERM, or when the process that started this one exits. `npx rllm serve … &` runs the server as
 * npx's child: killing npx (`kill %1`) re-parents the server instead of stopping it, and it would hold its port until
 * found by hand. A server started already orphaned (`setsid rllm serve`) keeps running: only a change of parent counts.
 */
export function waitForStop(onParentExit: (parentPid: number) => void = () => {}): Promise<StopReason> {
  const parentPid = process.ppid;
  return new Promise((resolve) => {
    const stop = (reason: StopReason) => {
      clearInterval(timer);
      process.removeListener("SIGINT", onInterrupt);
      process.removeListener("SIGTERM", onTerminate);
      resolve(reason);
    };
    const onInterrupt = () => stop("SIGINT");
    const onTerminate = () => stop("SIGTERM");
    process.once("SIGINT", onInterrupt);
    process.once("SIGTERM", onTerminate);
    const timer = setInterval(() => {
      if (process.ppid === parentPid) return;
      onParentExit(parentPid);
      stop("parent-exit");
    }, parentCheckMs);
    // The server keeps the process alive; the check must not, once the server is closed another way.
    timer.unref();
  });
}
