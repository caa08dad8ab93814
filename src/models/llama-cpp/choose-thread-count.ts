/**
 * llama.cpp's thread count: the cores the load average leaves free, at least 1. Its threads spin while they wait for
 * each other, so more threads than free cores makes every token wait on a descheduled thread (measured here: two
 * threads on a busy 2-core machine took 50–114 s per short answer, one thread 40–60 tokens/s).
 */
import os from "node:os";
import { z } from "zod";
import { InputError } from "../../core/errors/input-error.js";

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

/** The count for this machine now: `requested` (--threads), else RLLM_LLAMA_THREADS, else the free cores. */
export function threadCount(requested?: number): number {
  return chooseThreadCount({ cores: os.availableParallelism(), loadAverage: os.loadavg()[0]!, requested: requested ?? threadsFromEnvironment() });
}

function threadsFromEnvironment(): number | undefined {
  const value = process.env.RLLM_LLAMA_THREADS;
  if (value === undefined || value === "") return undefined;
  const parsed = z.coerce.number().int().positive().safeParse(value);
  if (!parsed.success) throw new InputError(`RLLM_LLAMA_THREADS=${value}: expected a positive integer (llama.cpp's CPU threads)`);
  return parsed.data;
}
