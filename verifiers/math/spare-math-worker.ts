/**
 * One grading thread started ahead of need. `rllm grade --verifier math` starts it before the CLI loads its flag
 * schemas and reads the input, so the thread's start-up and mathjs warm-up (about 0.3 s) overlap the CLI's own
 * instead of following it; the first MathWorkerPool to start a thread adopts it.
 */
import type { Worker } from "node:worker_threads";
import { startTsWorker } from "rllm-ts/core";
import { defaultMathPolicy } from "./math-policy.js";

/** A started grading thread and whether it has said it is warm. */
export interface SpareMathWorker {
  worker: Worker;
  isReady: boolean;
}

let spare: (SpareMathWorker & { onMessage: (message: unknown) => void }) | undefined;

/** Starts the spare thread unless one is waiting. It does not keep the process alive until a pool adopts it. */
export function startSpareMathWorker(): void {
  if (spare) return;
  const worker = startTsWorker(new URL("./math-worker.js", import.meta.url), { warmUpPolicy: defaultMathPolicy });
  const started = {
    worker,
    isReady: false,
    onMessage: (message: unknown) => {
      if (typeof message === "object" && message !== null && "ready" in message) started.isReady = true;
    },
  };
  worker.on("message", started.onMessage);
  // After the listener: a "message" listener refs the thread's port again.
  worker.unref();
  spare = started;
}

/** The spare thread, handed over once (its "ready" already noted), or undefined when none was started. */
export function takeSpareMathWorker(): SpareMathWorker | undefined {
  const taken = spare;
  spare = undefined;
  if (!taken) return undefined;
  taken.worker.off("message", taken.onMessage);
  taken.worker.ref();
  return { worker: taken.worker, isReady: taken.isReady };
}
