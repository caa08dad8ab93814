/**
 * llama.cpp's thread count: the cores the load average leaves free, at least 1. Its threads spin while they wait for
 * each other, so more threads than free cores makes every token wait on a descheduled thread (measured here: two
 * threads on a busy 2-core machine took 50–114 s per short answer, one thread 40–60 tokens/s).
 */

/** What the choice depends on: the machine's cores, its 1-minute load average, and an explicit count if one was given. */
export interface ThreadCountInputs {
  cores: number;
  loadAverage: number;
  /** `--threads`, else RLLM_LLAMA_THREADS; wins when set. */
  requested?: number;
}

/** The thread count for llama.cpp. */
export function chooseThreadCount({ cores, loadAverage, requested }: ThreadCountInputs): number {
  if (requested !== undefined) return requested;
  return Math.max(1, Math.min(cores, Math.round(cores - loadAverage)));
}
