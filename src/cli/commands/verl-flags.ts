/** `rllm verl launch | status | logs | stop`: the flag schemas and their types, read by both the definition (verl-command.ts) and the action. */
import { z } from "zod";

const connectionFlags = {
  address: z.string().optional().describe("Ray dashboard (head node) address (default: $RAY_ADDRESS, else http://127.0.0.1:8265)").meta({ value: "url" }),
  token: z.string().optional().describe("bearer token the dashboard requires (default: $RAY_JOBS_TOKEN)").meta({ value: "token" }),
};
const pollFlag = z.coerce.number().positive().default(5).describe("seconds between status and log polls").meta({ value: "seconds" });

/** `rllm verl launch`'s flags. */
export const VerlLaunchFlagsSchema = z.object({
  ...connectionFlags,
  bridgeUrl: z.string().min(1).describe("where the trainer reaches `rllm train --backend verl` (http://HOST:RLLM_VERL_BRIDGE_PORT)").meta({ value: "url" }),
  bridgeToken: z.string().optional().describe("the bridge's bearer token, passed to the job as RLLM_VERL_BRIDGE_TOKEN (default: $RLLM_VERL_BRIDGE_TOKEN)").meta({ value: "token" }),
  model: z.string().min(1).describe("actor_rollout_ref.model.path: the Hugging Face id or path the job trains").meta({ value: "path" }),
  trainConfig: z.string().optional().describe("the run's train.json: its loss, optimizer and steps become the job's actor overrides").meta({ value: "train.json" }),
  set: z.array(z.string()).default([]).describe("a Hydra override for the job, repeatable, applied last").meta({ value: "key=value" }),
  workingDir: z.string().optional().describe("runtime_env.working_dir, a URI the cluster fetches (gcs://, s3://, https://….zip)").meta({ value: "uri" }),
  pip: z.array(z.string()).default([]).describe("runtime_env.pip requirement, repeatable (e.g. the rllm_verl package's path on the cluster)").meta({ value: "requirement" }),
  uv: z.array(z.string()).default([]).describe("runtime_env.uv requirement, repeatable").meta({ value: "requirement" }),
  submissionId: z.string().optional().describe("the job's submission id (default: Ray picks one)").meta({ value: "id" }),
  metadata: z.array(z.string()).default([]).describe("job metadata, repeatable").meta({ value: "key=value" }),
  numGpus: z.coerce.number().nonnegative().optional().describe("entrypoint_num_gpus (the driver's own GPUs; workers take theirs from Ray)").meta({ value: "n" }),
  follow: z.boolean().default(false).describe("stream the job's logs until it ends; exit 0 if it SUCCEEDED, 1 if it FAILED or was STOPPED"),
  poll: pollFlag,
});
/** `rllm verl launch`'s parsed flags. */
export type VerlLaunchFlags = z.infer<typeof VerlLaunchFlagsSchema>;

/** `rllm verl status`'s flags. */
export const VerlStatusFlagsSchema = z.object({
  ...connectionFlags,
  wait: z.boolean().default(false).describe("poll until the job ends"),
  poll: pollFlag,
});
/** `rllm verl status`'s parsed flags. */
export type VerlStatusFlags = z.infer<typeof VerlStatusFlagsSchema>;

/** `rllm verl logs`'s flags. */
export const VerlLogsFlagsSchema = z.object({
  ...connectionFlags,
  follow: z.boolean().default(false).describe("keep streaming new log lines until the job ends"),
  poll: pollFlag,
});
/** `rllm verl logs`'s parsed flags. */
export type VerlLogsFlags = z.infer<typeof VerlLogsFlagsSchema>;

/** `rllm verl stop`'s flags. */
export const VerlStopFlagsSchema = z.object(connectionFlags);
/** `rllm verl stop`'s parsed flags. */
export type VerlStopFlags = z.infer<typeof VerlStopFlagsSchema>;
