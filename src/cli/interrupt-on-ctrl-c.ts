/** Ctrl-C for long-running commands: the first press stops the work cleanly through a signal, a second quits at once. */

/** What a command holds while Ctrl-C is watched: the signal its work stops on, and `release` for its `finally`. */
export interface CtrlCWatch {
  signal: AbortSignal;
  release: () => void;
}

/** Watches SIGINT: the first aborts `signal` after printing `message` (finished work is kept), the second exits 130. */
export function interruptOnCtrlC(message: string): CtrlCWatch {
  const controller = new AbortController();
  const onInterrupt = () => {
    if (controller.signal.aborted) process.exit(130);
    console.error(`\n${message}`);
    controller.abort(new Error("interrupted"));
  };
  process.on("SIGINT", onInterrupt);
  return { signal: controller.signal, release: () => process.off("SIGINT", onInterrupt) };
}
