/** Waiting on a training backend's step: local backends finish at once, remote ones are polled. */
import type { StepStatus, TrainingBackend } from "./backend.js";

/** Polls a (possibly remote, asynchronous) backend step until it finishes; a failed step is an error. */
export async function awaitStep(backend: TrainingBackend, stepId: string): Promise<StepStatus> {
  for (;;) {
    const status = await backend.status(stepId);
    if (status.state === "done") return status;
    if (status.state === "failed") throw new Error(`backend "${backend.name}" failed step ${stepId}: ${status.error ?? "no reason given"}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
