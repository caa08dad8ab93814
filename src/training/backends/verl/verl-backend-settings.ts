/** The verl backend's settings from the environment (`rllm train --backend verl` has no verl flags of its own), validated. */
import { z } from "zod";
import type { VerlBackendOptions } from "./verl-backend.js";

const seconds = (fallback: number) => z.coerce.number().positive().default(fallback);

/** The environment variables the verl backend reads, and their defaults. */
export const VerlEnvironmentSchema = z.object({
  /** 0.0.0.0 lets a trainer on another node reach it; then set a token. */
  RLLM_VERL_BRIDGE_HOST: z.string().min(1).default("127.0.0.1"),
  RLLM_VERL_BRIDGE_PORT: z.coerce.number().int().min(0).max(65535).default(8377),
  RLLM_VERL_BRIDGE_TOKEN: z.string().min(1).optional(),
  /** A Ray job needs minutes to start its workers and rollout servers. */
  RLLM_VERL_REGISTER_TIMEOUT: seconds(1800),
  /** verl pauses its rollout servers for the update and the weight sync. */
  RLLM_VERL_PAUSE_TOLERANCE: seconds(1800),
  RLLM_VERL_MAX_CONTEXT: z.coerce.number().int().positive().default(32768),
  /** The Ray dashboard `rllm verl` talks to; with it the backend watches the trainer's job and says when it dies. */
  RAY_ADDRESS: z.string().min(1).optional(),
  RAY_JOBS_TOKEN: z.string().min(1).optional(),
});

/** The backend's options from `environment`; a bad value is an error naming the variable. */
export function verlBackendSettings(environment: Record<string, string | undefined>): VerlBackendOptions {
  const parsed = VerlEnvironmentSchema.safeParse(environment);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`environment variable ${issue.path.join(".")}: ${issue.message}`);
  }
  const values = parsed.data;
  return {
    host: values.RLLM_VERL_BRIDGE_HOST,
    port: values.RLLM_VERL_BRIDGE_PORT,
    ...(values.RLLM_VERL_BRIDGE_TOKEN ? { token: values.RLLM_VERL_BRIDGE_TOKEN } : {}),
    registerTimeoutMs: values.RLLM_VERL_REGISTER_TIMEOUT * 1000,
    pauseToleranceMs: values.RLLM_VERL_PAUSE_TOLERANCE * 1000,
    maxContext: values.RLLM_VERL_MAX_CONTEXT,
    ...(values.RAY_ADDRESS ? { rayAddress: values.RAY_ADDRESS } : {}),
    ...(values.RAY_JOBS_TOKEN ? { rayToken: values.RAY_JOBS_TOKEN } : {}),
  };
}
