/**
 * The Ray job that runs the verl side of the bridge: `python3 -m rllm_verl.main` with the canonical GRPO run's Hydra
 * overrides (backends.md §2.3), the bridge's own keys, the actor settings of the run's train.json, and the user's
 * `--set` overrides last (Hydra takes the last value of a key).
 */
import type { TrainConfig } from "../../train-config.js";
import type { RayJobSubmission } from "./ray-jobs-client.js";
import { actorOverrides } from "./verl-actor-settings.js";

export interface VerlLaunchOptions {
  /** Where the trainer reaches rllm-ts's batch service (`rllm train --backend verl` on RLLM_VERL_BRIDGE_HOST/PORT). */
  bridgeUrl: string;
  bridgeToken?: string;
  model: string;
  /** The run's config: its actor settings and step count go to the job. */
  trainConfig?: TrainConfig;
  /** Extra Hydra overrides, applied last. */
  overrides: readonly string[];
  /** runtime_env.working_dir: a URI the cluster can fetch (gcs://, s3://, https://….zip). */
  workingDir?: string;
  /** runtime_env.pip, e.g. the rllm_verl package as a path on the cluster or a git URL. */
  pip: readonly string[];
  uv: readonly string[];
  submissionId?: string;
  metadata: Record<string, string>;
  entrypointNumGpus?: number;
}

/** The canonical GRPO overrides the bridge keeps from §2.3; rollout.n is 1 because rllm-ts draws the group itself. */
const CANONICAL_OVERRIDES = [
  "algorithm.adv_estimator=grpo",
  "data.max_prompt_length=1024",
  "data.max_response_length=2048",
  "data.filter_overlong_prompts=True",
  "data.truncation=error",
  "actor_rollout_ref.rollout.name=vllm",
  "actor_rollout_ref.rollout.mode=async",
  "actor_rollout_ref.rollout.n=1",
  "actor_rollout_ref.rollout.tensor_model_parallel_size=1",
  "actor_rollout_ref.rollout.gpu_memory_utilization=0.6",
  "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4",
  "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=4",
  "actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=4",
  "trainer.n_gpus_per_node=8",
  "trainer.nnodes=1",
  "trainer.logger=[console]",
  "trainer.project_name=rllm-ts",
  "trainer.val_before_train=False",
  "trainer.test_freq=-1",
  // rllm-ts asks for each checkpoint; on a restart the job loads the latest one by itself.
  "trainer.save_freq=-1",
  "trainer.resume_mode=auto",
];

/** The Ray job submission for a bridge run. */
export function verlLaunchRequest(options: VerlLaunchOptions): RayJobSubmission {
  const config = options.trainConfig;
  const overrides = [
    ...CANONICAL_OVERRIDES,
    `actor_rollout_ref.model.path=${options.model}`,
    ...(config
      ? [
          ...actorOverrides({ loss: config.loss, lossAggregation: config.lossAggregation, optimizer: config.optimizer, substeps: config.substeps }),
          // The trainer takes as many batches as rllm train sends, plus one spare for a resumed step.
          `trainer.total_training_steps=${config.steps + 1}`,
        ]
      : []),
    `+rllm.bridge_url=${options.bridgeUrl}`,
    ...options.overrides,
  ];
  const environment: Record<string, string> = options.bridgeToken ? { RLLM_VERL_BRIDGE_TOKEN: options.bridgeToken } : {};
  const runtimeEnvironment: NonNullable<RayJobSubmission["runtime_env"]> = {
    ...(options.workingDir ? { working_dir: options.workingDir } : {}),
    ...(options.pip.length > 0 ? { pip: [...options.pip] } : {}),
    ...(options.uv.length > 0 ? { uv: [...options.uv] } : {}),
    ...(Object.keys(environment).length > 0 ? { env_vars: environment } : {}),
  };
  return {
    entrypoint: ["python3", "-m", "rllm_verl.main", ...overrides.map(shellQuote)].join(" "),
    ...(options.submissionId ? { submission_id: options.submissionId } : {}),
    runtime_env: runtimeEnvironment,
    metadata: { launcher: "rllm verl launch", model: options.model, ...options.metadata },
    ...(options.entrypointNumGpus !== undefined ? { entrypoint_num_gpus: options.entrypointNumGpus } : {}),
  };
}

// Hydra list values ([console]) and URLs contain shell metacharacters; single quotes keep them whole.
function shellQuote(value: string): string {
  return /^[\w.=:/@+-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}
