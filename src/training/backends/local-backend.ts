/**
 * The local training backend: a thin adapter from the TrainingBackend contract to the embedded tiny model's learner
 * (local-learner.ts: tfjs on wasm, micro-batched gradients, Adam, the policy losses) on a thread of its own, and a
 * sampler (an OpenAI-compatible server, also on its own thread) that gets each published policy version. So sampling,
 * training and the rollouts' orchestration run side by side. Every step reports how far the learner's logprobs are
 * from the sampler's on the same tokens.
 */
import { parameterShapes, type TinyModelConfig } from "../../models/tiny/model-config.js";
import type { ModelWeights } from "../../models/tiny/model-weights.js";
import {
  assertBatchSupported,
  type BackendCapabilities,
  LossAggregationSchema,
  type OpenRequest,
  type PolicyRef,
  type SampleRequest,
  type SampleResult,
  type StepStatus,
  type TrainBatch,
  type TrainingBackend,
} from "../backend.js";
import { UnsupportedRequestError } from "../errors/unsupported-request-error.js";
import { startLearnerThread, type LearnerThread } from "./learner-thread.js";
import { LOCAL_LOSSES } from "./policy-loss.js";
import { readLocalCheckpoint, writeLocalCheckpoint } from "./local-checkpoint.js";
import { sampleCompletions, type PolicySampler } from "./policy-sampler.js";

/** The model to train, its starting weights (also the KL reference), and how to start its sampler. */
export interface LocalBackendOptions {
  config: TinyModelConfig;
  weights: ModelWeights;
  startSampler(weights: ModelWeights): Promise<PolicySampler>;
  /** Padded positions per forward/backward pass (default MICRO_BATCH_POSITIONS); gradients are summed across passes. */
  microBatchPositions?: number;
}

/** Creates the local backend; nothing runs until `open`. */
export function createLocalBackend(options: LocalBackendOptions): TrainingBackend {
  const { config } = options;
  const shapes = parameterShapes(config);
  let learner: LearnerThread | undefined;
  let sampler: PolicySampler | undefined;
  let version = 0;
  const steps = new Map<string, StepStatus>();

  const capabilities: BackendCapabilities = {
    name: "local",
    losses: LOCAL_LOSSES,
    lossAggregations: LossAggregationSchema.options,
    merges: ["prefix", "per_call"],
    sampling: "openai",
    fullFineTune: true,
    lora: false,
    maxContext: config.contextLength,
    checkpoints: true,
    referenceKl: true,
    entropySelection: true,
    dualClip: true,
    truncatedImportanceSampling: true,
    asyncRollouts: "pinned",
  };

  const opened = () => {
    if (!learner || !sampler) throw new Error("local backend: call open() first");
    return { learner, sampler };
  };
  const policyRef = (): PolicyRef => ({
    backend: "local",
    modelId: opened().sampler.model,
    version,
    openaiBaseUrl: opened().sampler.baseUrl,
  });

  return {
    name: "local",
    capabilities: () => capabilities,

    async open(request: OpenRequest): Promise<PolicyRef> {
      if (request.loraRank !== undefined) throw new UnsupportedRequestError("local", "option", "loraRank", ["full fine-tuning only"]);
      learner = await startLearnerThread({ config, weights: options.weights, microBatchPositions: options.microBatchPositions });
      sampler = await options.startSampler(options.weights);
      return policyRef();
    },

    async sample(request: SampleRequest): Promise<SampleResult> {
      if (request.stopTokenIds?.length) throw new UnsupportedRequestError("local", "option", "stopTokenIds", ["maxTokens and the end token"]);
      return sampleCompletions(opened().sampler, request, version);
    },

    async submit(batch: TrainBatch): Promise<{ stepId: string }> {
      assertBatchSupported(capabilities, batch);
      const stepId = `step-${steps.size + 1}`;
      // Awaited here, so the step is done once submitted; the event loop stays free while the learner thread works.
      const metrics = await opened().learner.call("train", batch);
      steps.set(stepId, { state: "done", metrics: { ...metrics } });
      return { stepId };
    },

    async forward(batch: TrainBatch): Promise<{ loss: number; tokens: number }> {
      if (batch.loss.kind !== "cross_entropy") throw new UnsupportedRequestError("local", "forward loss", batch.loss.kind, ["cross_entropy"]);
      assertBatchSupported(capabilities, batch);
      return opened().learner.call("forward", batch.sequences);
    },

    async status(stepId: string): Promise<StepStatus> {
      const status = steps.get(stepId);
      if (!status) throw new Error(`local backend: no step "${stepId}"`);
      return status;
    },

    async publish(): Promise<PolicyRef> {
      const state = opened();
      version += 1;
      await state.sampler.update(await state.learner.call("weights", null), version);
      return policyRef();
    },

    async checkpoint(directory: string): Promise<{ path: string }> {
      const { weights, firstMoment, secondMoment, adamStep } = await opened().learner.call("state", null);
      writeLocalCheckpoint(directory, config, { manifest: { policyVersion: version, adamStep, shapes }, weights, firstMoment, secondMoment });
      return { path: directory };
    },

    async restore(directory: string): Promise<PolicyRef> {
      const state = opened();
      const checkpoint = readLocalCheckpoint(directory);
      if (JSON.stringify(checkpoint.manifest.shapes) !== JSON.stringify(shapes)) {
        throw new Error(`${directory}: checkpoint shapes do not match the model config`);
      }
      await state.learner.call("restoreState", { ...checkpoint, adamStep: checkpoint.manifest.adamStep });
      version = checkpoint.manifest.policyVersion;
      await state.sampler.update(checkpoint.weights, version);
      return policyRef();
    },

    async retainVersions(versions: readonly number[]): Promise<void> {
      await opened().sampler.retain?.(versions);
    },

    async close(): Promise<void> {
      await sampler?.close();
      await learner?.close();
      learner = undefined;
      sampler = undefined;
    },
  };
}
