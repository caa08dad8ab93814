/**
 * The local training backend on the embedded tiny model: tfjs (wasm) autograd on CPU, Tinker-style losses, Adam,
 * and a sampler (an OpenAI-compatible server) that gets each published policy version. Every step reports how far
 * the learner's logprobs are from the sampler's on the same tokens.
 */
import * as tf from "@tensorflow/tfjs";
import { z } from "zod";
import { parameterShapes, type TinyModelConfig } from "../../models/tiny/model-config.js";
import type { ModelWeights } from "../../models/tiny/model-weights.js";
import { applyAdam, createAdamState, type AdamState } from "../../models/tiny/adam.js";
import { packTokenBatch } from "../../models/tiny/token-batch.js";
import { nextTokenLogprobs, readVariables, toVariables, type ModelVariables } from "../../models/tiny/transformer.js";
import { useWasmBackend } from "../../models/tiny/wasm-backend.js";
import {
  assertBatchSupported,
  type BackendCapabilities,
  type BatchSequence,
  type OpenRequest,
  type PolicyRef,
  type SampleRequest,
  type SampleResult,
  type StepStatus,
  type TrainBatch,
  type TrainingBackend,
} from "../backend.js";
import { UnsupportedRequestError } from "../errors/unsupported-request-error.js";
import { LOCAL_LOSSES, policyLoss } from "./policy-loss.js";
import { readLocalCheckpoint, writeLocalCheckpoint } from "./local-checkpoint.js";

/** A running OpenAI-compatible server on the current weights. */
export interface PolicySampler {
  /** OpenAI base URL, e.g. http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  model: string;
  /** Serves `weights` from now on. */
  update(weights: ModelWeights): Promise<void>;
  close(): Promise<void>;
}

export interface LocalBackendOptions {
  config: TinyModelConfig;
  weights: ModelWeights;
  startSampler(weights: ModelWeights): Promise<PolicySampler>;
}

interface StepMetrics {
  loss: number;
  clipFraction: number;
  gradNorm: number;
  /** Mean and max |learner − sampler| logprob over trained tokens, before the update. */
  logprobMismatchMean: number;
  logprobMismatchMax: number;
  /** Mean (sampler − learner) logprob over trained tokens: an estimate of KL(sampler ‖ learner). */
  samplerLearnerKl: number;
  sequences: number;
  trainedTokens: number;
}

/** Creates the local backend; nothing runs until `open`. */
export function createLocalBackend(options: LocalBackendOptions): TrainingBackend {
  const { config } = options;
  const shapes = parameterShapes(config);
  let variables: ModelVariables | undefined;
  let adam: AdamState | undefined;
  let sampler: PolicySampler | undefined;
  let version = 0;
  const steps = new Map<string, StepStatus>();

  const capabilities: BackendCapabilities = {
    name: "local",
    losses: LOCAL_LOSSES,
    lossAggregations: ["sum", "token-mean", "seq-mean-token-mean"],
    merges: ["prefix", "per_call"],
    sampling: "openai",
    fullFineTune: true,
    lora: false,
    maxContext: config.contextLength,
    checkpoints: true,
  };

  const opened = () => {
    if (!variables || !adam || !sampler) throw new Error("local backend: call open() first");
    return { variables, adam, sampler };
  };
  const policyRef = (): PolicyRef => ({
    backend: "local",
    modelId: opened().sampler.model,
    version,
    openaiBaseUrl: opened().sampler.baseUrl,
  });

  function trainChunk(sequences: readonly BatchSequence[], batch: TrainBatch, measureMismatch: boolean): Partial<StepMetrics> {
    const state = opened();
    const packed = packTokenBatch(sequences.map((sequence) => sequence.tokens), sequences.map((sequence) => sequence.lossMask));
    const positions = packed.time - 1;
    // Sampler logprob of target token t sits at position t − 1, like the mask.
    const sampled = new Float32Array(packed.batch * positions);
    sequences.forEach((sequence, row) => {
      for (let token = 1; token < sequence.tokens.length; token++) sampled[row * positions + token - 1] = sequence.samplerLogprobs[token]!;
    });
    const ids = tf.tensor2d(packed.ids, [packed.batch, packed.time], "int32");
    const samplerLogprobs = tf.tensor2d(sampled, [packed.batch, positions]);
    const mask = tf.tensor2d(packed.targetWeights, [packed.batch, positions]);
    const advantages = tf.tensor2d(sequences.map((sequence) => sequence.advantage), [packed.batch, 1]);
    let learner: tf.Tensor2D | undefined;
    let clipFraction: tf.Scalar | undefined;
    const { value, grads } = tf.variableGrads(() => {
      const learnerLogprobs = nextTokenLogprobs(state.variables, ids, config);
      learner = tf.keep(learnerLogprobs.clone());
      const result = policyLoss({ learnerLogprobs, samplerLogprobs, mask, advantages }, batch.loss, batch.lossAggregation);
      clipFraction = tf.keep(result.clipFraction);
      return result.loss;
    }, [...state.variables.values()]);
    // variableGrads keys gradients by tfjs variable name; Adam wants them by parameter name.
    const gradients = Object.fromEntries([...state.variables].map(([name, variable]) => [name, grads[variable.name]!]));
    const gradNorm = applyAdam(state.variables, gradients, state.adam, {
      learningRate: batch.optimizer.learningRate,
      beta1: batch.optimizer.beta1,
      beta2: batch.optimizer.beta2,
      epsilon: batch.optimizer.epsilon,
      weightDecay: batch.optimizer.weightDecay,
      clipNorm: batch.optimizer.gradClipNorm ?? Number.POSITIVE_INFINITY,
    });
    const metrics: Partial<StepMetrics> = { loss: value.dataSync()[0]!, clipFraction: clipFraction!.dataSync()[0]!, gradNorm };
    if (measureMismatch) Object.assign(metrics, mismatch(learner!, samplerLogprobs, mask));
    tf.dispose([ids, samplerLogprobs, mask, advantages, value, learner!, clipFraction!, ...Object.values(grads)]);
    return metrics;
  }

  return {
    name: "local",
    capabilities: () => capabilities,

    async open(request: OpenRequest): Promise<PolicyRef> {
      if (request.loraRank !== undefined) throw new UnsupportedRequestError("local", "option", "loraRank", ["full fine-tuning only"]);
      await useWasmBackend();
      variables = toVariables(options.weights, shapes);
      adam = createAdamState(variables);
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
      const chunkSize = Math.ceil(batch.sequences.length / Math.max(1, batch.substeps));
      const totals: StepMetrics = {
        loss: 0, clipFraction: 0, gradNorm: 0, logprobMismatchMean: 0, logprobMismatchMax: 0, samplerLearnerKl: 0,
        sequences: batch.sequences.length,
        trainedTokens: batch.sequences.reduce((sum, sequence) => sum + sequence.lossMask.reduce((a, b) => a + b, 0), 0),
      };
      let chunks = 0;
      for (let start = 0; start < batch.sequences.length; start += chunkSize) {
        // Only the first chunk is measured before any update of this step, so its mismatch is the sampler's.
        const metrics = trainChunk(batch.sequences.slice(start, start + chunkSize), batch, start === 0);
        totals.loss += metrics.loss!;
        totals.clipFraction += metrics.clipFraction!;
        totals.gradNorm = Math.max(totals.gradNorm, metrics.gradNorm!);
        if (start === 0) Object.assign(totals, pick(metrics, ["logprobMismatchMean", "logprobMismatchMax", "samplerLearnerKl"]));
        chunks += 1;
      }
      totals.loss /= Math.max(chunks, 1);
      totals.clipFraction /= Math.max(chunks, 1);
      steps.set(stepId, { state: "done", metrics: { ...totals, substeps: chunks } });
      return { stepId };
    },

    async status(stepId: string): Promise<StepStatus> {
      const status = steps.get(stepId);
      if (!status) throw new Error(`local backend: no step "${stepId}"`);
      return status;
    },

    async publish(): Promise<PolicyRef> {
      const state = opened();
      version += 1;
      await state.sampler.update(readVariables(state.variables));
      return policyRef();
    },

    async checkpoint(directory: string): Promise<{ path: string }> {
      const state = opened();
      const read = (map: Map<string, tf.Variable>) => new Map([...map].map(([name, variable]) => [name, variable.dataSync() as Float32Array]));
      writeLocalCheckpoint(directory, {
        manifest: { policyVersion: version, adamStep: state.adam.step, shapes },
        weights: readVariables(state.variables),
        firstMoment: read(state.adam.firstMoment),
        secondMoment: read(state.adam.secondMoment),
      });
      return { path: directory };
    },

    async restore(path: string): Promise<PolicyRef> {
      const state = opened();
      const checkpoint = readLocalCheckpoint(path);
      const expected = JSON.stringify(shapes);
      if (JSON.stringify(checkpoint.manifest.shapes) !== expected) {
        throw new Error(`${path}: checkpoint shapes do not match the model config`);
      }
      const assign = (targets: Map<string, tf.Variable>, values: Map<string, Float32Array>) => {
        for (const [name, shape] of shapes) targets.get(name)!.assign(tf.tensor(values.get(name)!, shape));
      };
      assign(state.variables, checkpoint.weights);
      assign(state.adam.firstMoment, checkpoint.firstMoment);
      assign(state.adam.secondMoment, checkpoint.secondMoment);
      state.adam.step = checkpoint.manifest.adamStep;
      version = checkpoint.manifest.policyVersion;
      await state.sampler.update(checkpoint.weights);
      return policyRef();
    },

    async close(): Promise<void> {
      await sampler?.close();
      if (variables) tf.dispose([...variables.values()]);
      if (adam) tf.dispose([...adam.firstMoment.values(), ...adam.secondMoment.values()]);
      variables = undefined;
      adam = undefined;
      sampler = undefined;
    },
  };
}

function mismatch(learner: tf.Tensor2D, sampler: tf.Tensor2D, mask: tf.Tensor2D): Partial<StepMetrics> {
  return tf.tidy(() => {
    const count = Math.max(mask.sum().dataSync()[0]!, 1);
    const difference = sampler.sub(learner).mul(mask);
    return {
      logprobMismatchMean: difference.abs().sum().dataSync()[0]! / count,
      logprobMismatchMax: difference.abs().max().dataSync()[0]!,
      samplerLearnerKl: difference.sum().dataSync()[0]! / count,
    };
  });
}

function pick<T extends object, K extends keyof T>(value: T, keys: K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, value[key]])) as Pick<T, K>;
}

// Only what sampling reads of a vLLM-style /v1/completions reply.
const CompletionsReplySchema = z.object({
  choices: z.array(
    z.object({
      index: z.number().int().default(0),
      token_ids: z.array(z.number().int()),
      finish_reason: z.string().nullish(),
      logprobs: z.object({ token_logprobs: z.array(z.number()) }),
    }),
  ),
});

/** Token-in/token-out sampling through the sampler's /v1/completions (prompt as token ids, vLLM style). */
async function sampleCompletions(sampler: PolicySampler, request: SampleRequest, version: number): Promise<SampleResult> {
  const response = await fetch(`${sampler.baseUrl}/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      model: sampler.model,
      prompt: request.promptTokenIds,
      n: request.n,
      max_tokens: request.maxTokens,
      temperature: request.temperature,
      ...(request.topP !== undefined ? { top_p: request.topP } : {}),
      ...(request.seed !== undefined ? { seed: request.seed } : {}),
      logprobs: 1,
      return_token_ids: true,
    }),
  });
  if (!response.ok) throw new Error(`local sampler: HTTP ${response.status}: ${await response.text()}`);
  const reply = CompletionsReplySchema.parse(await response.json());
  return {
    policyVersion: version,
    completions: [...reply.choices]
      .sort((a, b) => a.index - b.index)
      .map((choice) => ({
        tokenIds: choice.token_ids,
        logprobs: choice.logprobs.token_logprobs,
        stopReason: choice.finish_reason === "length" ? "length" : "stop",
      })),
  };
}
