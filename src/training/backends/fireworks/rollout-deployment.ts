/**
 * The rollout deployment (fireworks-ai 1.2.30's DeploymentManager): a hot-load deployment of the base model tied to the
 * trainer job, each published version hot-loaded onto it by its sampler snapshot's identity, and token-in, token-out
 * sampling through /inference/v1/completions (raw_output's completion token ids, logprobs per token).
 */
import { z } from "zod";
import type { SampledSequence } from "../../../llm/tinker/tinker-proto.js";
import type { SampleParameters, TinkerSampler } from "../../../llm/tinker/tinker-sampler.js";
import { FireworksNotReadyError } from "./fireworks-errors.js";
import type { FireworksRestClient } from "./fireworks-rest-client.js";
import type { ReadyWait } from "./trainer-job-lifecycle.js";

const DeploymentSchema = z.object({ state: z.string().default("") }).passthrough();
const HotLoadStatusSchema = z.object({
  replicas: z.array(z.object({ current_snapshot_identity: z.string().nullish(), readiness: z.boolean().nullish(), loading_state: z.object({ stage: z.string().nullish() }).nullish() })),
});
const CompletionSchema = z.object({
  choices: z.array(
    z.object({
      index: z.number().int().default(0),
      finish_reason: z.string().nullish(),
      raw_output: z.object({ completion_token_ids: z.array(z.number().int()) }),
      logprobs: z.object({ content: z.array(z.object({ logprob: z.number() })) }).nullish(),
    }),
  ),
});

/** A deployment the backend created and samples from. */
export interface RolloutDeployment {
  deploymentId: string;
  /** `accounts/{account}/deployments/{id}`: the model name inference calls use. */
  model: string;
  /** Hot-loads a sampler snapshot and answers once every replica serves it. */
  hotLoad(identity: string): Promise<void>;
  /** A sampler over the deployment's current weights, recorded as `version`. */
  sampler(version: number, source: string): TinkerSampler;
}

/** Creates the deployment for `trainerJobName` and waits until it is READY. */
export async function openRolloutDeployment(
  client: FireworksRestClient,
  request: { account: string; deploymentId: string; baseModel: string; trainerJobName: string },
  wait: ReadyWait,
): Promise<RolloutDeployment> {
  const { account, deploymentId, baseModel } = request;
  const sleep = wait.sleep ?? ((milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds)));
  const now = wait.now ?? Date.now;
  const resource = `/v1/accounts/${account}/deployments/${deploymentId}`;
  const model = `accounts/${account}/deployments/${deploymentId}`;
  // DeploymentManager._build_deployment_body for a DeploymentConfig with hot_load_trainer_job and the SDK defaults.
  await client.request(`/v1/accounts/${account}/deployments?deploymentId=${deploymentId}`, {
    method: "POST",
    body: {
      baseModel,
      description: "rllm-ts rollout deployment",
      minReplicaCount: 0,
      maxReplicaCount: 1,
      enableHotLoad: true,
      forTraining: true,
      hotLoadBucketType: "FW_HOSTED",
      hotLoadTrainerJob: request.trainerJobName,
      acceleratorType: "NVIDIA_H200_141GB",
    },
  });
  const started = now();
  for (;;) {
    const { state } = DeploymentSchema.parse(await client.request(resource));
    if (state === "READY") break;
    if (["FAILED", "DELETED", "DELETING"].includes(state)) throw new FireworksNotReadyError(`deployment ${deploymentId}`, state, "the control plane stopped it");
    if (now() - started > wait.deploymentTimeoutMs) throw new FireworksNotReadyError(`deployment ${deploymentId}`, state, `not ready after ${Math.round(wait.deploymentTimeoutMs / 1000)} s`);
    await sleep(wait.pollMs);
  }
  const hotLoadHeaders = { "fireworks-model": baseModel, "fireworks-deployment": model };

  return {
    deploymentId,
    model,
    async hotLoad(identity) {
      await client.request("/hot_load/v1/models/hot_load", { method: "POST", bearer: true, headers: hotLoadHeaders, body: { identity, reset_prompt_cache: true } });
      const loadStarted = now();
      for (;;) {
        const status = HotLoadStatusSchema.parse(await client.request("/hot_load/v1/models/hot_load", { bearer: true, headers: hotLoadHeaders }));
        const replica = status.replicas[0];
        if (replica?.readiness && replica.current_snapshot_identity === identity) return;
        if (replica?.loading_state?.stage === "error") throw new FireworksNotReadyError(`hot load of ${identity}`, "error", `deployment ${deploymentId} could not load it`);
        if (now() - loadStarted > wait.hotLoadTimeoutMs) throw new FireworksNotReadyError(`hot load of ${identity}`, replica?.loading_state?.stage ?? "pending", `not served after ${Math.round(wait.hotLoadTimeoutMs / 1000)} s`);
        await sleep(wait.pollMs);
      }
    },
    sampler(version, source) {
      return {
        samplingSessionId: model,
        source,
        version,
        sample: (parameters) => sampleCompletions(client, model, parameters),
      };
    },
  };
}

/** One completions call, token ids in; completions take stop strings, not ids, so stop tokens are cut here. */
async function sampleCompletions(client: FireworksRestClient, model: string, parameters: SampleParameters): Promise<SampledSequence[]> {
  const reply = CompletionSchema.parse(
    await client.request("/inference/v1/completions", {
      method: "POST",
      bearer: true,
      body: {
        model,
        prompt: parameters.promptTokenIds,
        n: parameters.numSamples,
        max_tokens: parameters.maxTokens,
        temperature: parameters.temperature,
        top_p: parameters.topP ?? 1,
        // Full-distribution sampling, as the SDK's RL sampler asks: the deployment's generation defaults would truncate it.
        top_k: 0,
        ...(parameters.seed !== undefined ? { seed: parameters.seed } : {}),
        logprobs: true,
        raw_output: true,
        stream: false,
      },
    }),
  );
  const stops = new Set(parameters.stopTokenIds ?? []);
  return reply.choices
    .sort((a, b) => a.index - b.index)
    .map((choice) => {
      const tokens = choice.raw_output.completion_token_ids;
      const logprobs = (choice.logprobs?.content ?? []).map((entry) => entry.logprob);
      const stopAt = tokens.findIndex((token) => stops.has(token));
      const end = stopAt >= 0 ? stopAt + 1 : tokens.length;
      const stopped = stopAt >= 0 || choice.finish_reason === "stop";
      return { tokens: tokens.slice(0, end), logprobs: logprobs.slice(0, end), stopReason: stopped ? ("stop" as const) : ("length" as const) };
    });
}
