/**
 * SandboxFusion's `/run_code` wire format (bytedance/SandboxFusion `sandbox/server/sandbox_api.py` and
 * `sandbox/runners/types.py`): the request verl's and tinker-cookbook's code rewards send, and the reply they read.
 */
import { z } from "zod";

/** A service's `/run_code` URL, whether given as the service's root or as that URL (verl's form). */
export function runCodeUrl(base: string): string {
  const trimmed = base.replace(/\/+$/, "");
  return trimmed.endsWith("/run_code") ? trimmed : `${trimmed}/run_code`;
}

/** The languages this project's sandbox runs; SandboxFusion knows many more, which `rllm sandbox serve` refuses by name. */
export const supportedLanguages = ["python"] as const;

/**
 * Response headers in which `rllm sandbox serve` states its request limits on every reply, so that a client splits a
 * problem to fit instead of sending a request the service must refuse. Other services send none; their limits are
 * learnt from the 4xx they answer.
 */
export const limitHeaders = { runTimeoutSeconds: "x-rllm-max-run-timeout", bodyBytes: "x-rllm-max-body-bytes", outputBytes: "x-rllm-max-output-bytes" } as const;

/**
 * What one service states it accepts: the longest run_timeout (seconds), the largest request body (bytes), and the
 * output past which a run fails with a note saying so (outputExceededNote) instead of being cut short in silence.
 */
export interface HostLimits {
  runTimeoutSeconds?: number;
  bodyBytes?: number;
  outputBytes?: number;
}

/**
 * SandboxFusion keeps the first 1 MiB of a run's stdout and drops the rest without a word
 * (`_MAX_CAPTURED_OUTPUT_BYTES`, bytedance/SandboxFusion `sandbox/runners/base.py`): a service that states no output
 * limit of its own is taken to do the same.
 */
export const sandboxFusionCapturedBytes = 1024 * 1024;

/** The stderr line `rllm sandbox serve` adds when a program printed past the output cap: a wrong answer, as in local grading. */
export const outputExceededNote = "rllm-sandbox: output exceeded the limit";

/** POST /run_code body. Defaults are SandboxFusion's own (`RunCodeRequest`). */
export const RunCodeRequestSchema = z.object({
  code: z.string(),
  language: z.string().min(1),
  compile_timeout: z.number().positive().default(10),
  run_timeout: z.number().positive().default(10),
  /** -1: no limit of the request's own (the service's cap still holds). */
  memory_limit_MB: z.number().int().default(-1),
  stdin: z.string().nullish(),
  /** Path → base64 content, written beside the program before it runs. */
  files: z.record(z.string(), z.string().nullable()).default({}),
  fetch_files: z.array(z.string()).default([]),
});
export type RunCodeRequest = z.input<typeof RunCodeRequestSchema>;
export type ParsedRunCodeRequest = z.output<typeof RunCodeRequestSchema>;

/** One command's result (`CommandRunResult`). */
export const CommandRunResultSchema = z.object({
  status: z.enum(["Finished", "Error", "TimeLimitExceeded"]),
  execution_time: z.number().nullish(),
  return_code: z.number().int().nullish(),
  stdout: z.string().nullish(),
  stderr: z.string().nullish(),
});
export type CommandRunResult = z.infer<typeof CommandRunResultSchema>;

/** POST /run_code reply (`RunCodeResponse`): Success, Failed (a time limit or a non-zero exit), or SandboxError. */
export const RunCodeResponseSchema = z.object({
  status: z.enum(["Success", "Failed", "SandboxError"]),
  message: z.string(),
  compile_result: CommandRunResultSchema.nullish(),
  run_result: CommandRunResultSchema.nullish(),
  executor_pod_name: z.string().nullish(),
  files: z.record(z.string(), z.string()).default({}),
});
export type RunCodeResponse = z.infer<typeof RunCodeResponseSchema>;
