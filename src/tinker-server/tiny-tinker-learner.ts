/**
 * One model of the local Tinker server: the tiny model's learner with Tinker's semantics. forward_backward adds the
 * gradients of a summed loss (per-token advantages; positions whose advantage is 0 are left out) until optim_step
 * applies them with the request's Adam parameters; full weights stand in for LoRA.
 */
import * as tf from "@tensorflow/tfjs";
import type { TinyModelConfig } from "../models/tiny/model-config.js";
import type { ModelWeights } from "../models/tiny/model-weights.js";
import { packTargetValues } from "../models/tiny/token-batch.js";
import { addGradients, TrainableModel, type LearnerState } from "../models/tiny/trainable-model.js";
import { LossKindSchema, TINKER_LOSS_FUNCTIONS, type LossConfig } from "../training/backend.js";
import { policyLoss } from "../training/backends/policy-loss.js";
import type { DecodedForwardBackwardRequest, ForwardBackwardResult } from "../llm/tinker/tinker-proto.js";
import { FutureFailure } from "./future-table.js";
import type { AdamParameters, TinkerLearner } from "./tinker-base-model.js";

// Same bound as the local backend: the wasm heap cannot hold a whole large batch's attention at once.
const MICRO_BATCH_POSITIONS = 8192;

interface Row {
  tokens: number[];
  lossMask: number[];
  samplerLogprobs: number[];
  advantages: number[];
}

/** A trainable tiny model with pending gradients. */
export class TinyTinkerLearner implements TinkerLearner {
  private pending = new Map<string, tf.Tensor>();

  private constructor(
    private readonly learner: TrainableModel,
    private readonly vocabularySize: number,
  ) {}

  /** A learner starting from `weights`. */
  static async create(config: TinyModelConfig, weights: ModelWeights, vocabularySize: number): Promise<TinyTinkerLearner> {
    return new TinyTinkerLearner(await TrainableModel.fromWeights(config, weights), vocabularySize);
  }

  /** Runs one forward_backward (or forward only); answers per-datum learner logprobs and the summed loss. */
  async forwardBackward(request: DecodedForwardBackwardRequest): Promise<ForwardBackwardResult> {
    const vocabularySize = this.vocabularySize;
    const contextLength = this.learner.config.contextLength;
    const kind = LossKindSchema.safeParse(request.lossFn);
    // Tinker's own loss functions only, though the local backend computes more (verl's): the emulator answers as Tinker does.
    if (!kind.success || !TINKER_LOSS_FUNCTIONS.includes(kind.data)) {
      throw new FutureFailure(`loss_fn "${request.lossFn}": the local Tinker server computes ${TINKER_LOSS_FUNCTIONS.join(", ")}`, "user");
    }
    const rows = request.data.map((datum, index) => toRow(datum, index, kind.data, vocabularySize, contextLength));
    if (request.forwardOnly) {
      const logprobs = this.learner.sequenceLogprobs(rows.map((row) => row.tokens));
      const loss = rows.reduce((sum, row, index) => sum + forwardLoss(row, logprobs[index]!, kind.data), 0);
      return { lossFnOutputType: "per_datum", outputs: logprobs.map((row) => ({ logprobs: row.slice(1) })), metrics: { "loss:sum": loss } };
    }
    const config = request.lossFnConfig;
    const loss: LossConfig = {
      kind: kind.data,
      clipLow: 1 - (config.clip_low_threshold ?? 0.8),
      clipHigh: (config.clip_high_threshold ?? 1.2) - 1,
      beta: kind.data === "dro" ? (config.beta ?? 0.05) : undefined,
      klCoef: 0,
      minEntropy: 0,
    };
    const result = this.learner.accumulateGradients(
      rows,
      (learnerLogprobs, micro) => {
        const shape: [number, number] = [micro.packed.batch, micro.packed.time - 1];
        const samplerLogprobs = tf.tensor2d(packTargetValues(micro.packed, micro.rows.map((row) => row.samplerLogprobs)), shape);
        const advantages = tf.tensor2d(packTargetValues(micro.packed, micro.rows.map((row) => row.advantages)), shape);
        const output = policyLoss({ learnerLogprobs, samplerLogprobs, mask: micro.mask, advantages }, loss, "sum");
        return { loss: output.loss, metrics: { clipFraction: output.clipFraction } };
      },
      { microBatchPositions: MICRO_BATCH_POSITIONS },
    );
    addGradients(this.pending, result.gradients);
    const positions = result.microBatches.reduce((sum, micro) => sum + micro.trainedTokens, 0);
    const clipped = result.microBatches.reduce((sum, micro) => sum + micro.metrics.clipFraction! * micro.trainedTokens, 0);
    return {
      lossFnOutputType: "per_datum",
      outputs: result.logprobs.map((row) => ({ logprobs: row.slice(1) })),
      metrics: { "loss:sum": result.loss, "clip_fraction:mean": clipped / Math.max(1, positions) },
    };
  }

  /** Applies the pending gradients; answers their global norm. */
  async optimStep(adam: AdamParameters): Promise<Record<string, number>> {
    if (this.pending.size === 0) throw new FutureFailure("optim_step with no forward_backward since the last step", "user");
    const gradients = this.pending;
    this.pending = new Map();
    const gradNorm = this.learner.applyGradients(gradients, {
      learningRate: adam.learning_rate,
      beta1: adam.beta1,
      beta2: adam.beta2,
      epsilon: adam.eps,
      weightDecay: adam.weight_decay,
      clipNorm: adam.grad_clip_norm > 0 ? adam.grad_clip_norm : Number.POSITIVE_INFINITY,
    });
    return { grad_norm: gradNorm };
  }

  /** Weights and optimizer state (save_weights). */
  async saveState(): Promise<LearnerState> {
    return this.learner.state();
  }

  /** The current weights (save_weights_for_sampler, and tests comparing an update with another backend's). */
  weights(): ModelWeights {
    return this.learner.weights();
  }

  async samplerWeights(): Promise<ModelWeights> {
    return this.learner.weights();
  }

  /** Puts back saved weights, and the optimizer state when asked (load_weights). */
  async loadState(state: unknown, withOptimizer: boolean): Promise<void> {
    const saved = state as LearnerState;
    const current = this.learner.state();
    this.learner.restoreState(withOptimizer ? saved : { ...current, weights: saved.weights });
  }

  async dispose(): Promise<void> {
    tf.dispose([...this.pending.values()]);
    this.learner.dispose();
  }
}

// A Datum back to one flat, token-aligned row: tokens = input + last target; values at position t belong to token t.
function toRow(
  datum: DecodedForwardBackwardRequest["data"][number],
  index: number,
  kind: LossConfig["kind"],
  vocabularySize: number,
  contextLength: number,
): Row {
  const targets = datum.lossFnInputs.target_tokens;
  if (!targets || targets.length !== datum.modelInput.length) {
    throw new FutureFailure(`datum ${index}: target_tokens must have one entry per model_input token (${datum.modelInput.length})`, "user");
  }
  const tokens = [...datum.modelInput, targets.at(-1)!];
  if (tokens.some((token) => token < 0 || token >= vocabularySize)) throw new FutureFailure(`datum ${index}: a token id is outside the vocabulary (${vocabularySize})`, "user");
  if (tokens.length > contextLength) throw new FutureFailure(`datum ${index}: ${tokens.length} tokens; the model's context is ${contextLength}`, "user");
  const aligned = (name: string, fill: number) => {
    const values = datum.lossFnInputs[name];
    if (values && values.length !== targets.length) throw new FutureFailure(`datum ${index}: ${name} has ${values.length} values for ${targets.length} targets`, "user");
    return [0, ...(values ?? targets.map(() => fill))];
  };
  if (kind === "cross_entropy") return checkTargets({ tokens, lossMask: aligned("weights", 1), samplerLogprobs: aligned("logprobs", 0), advantages: tokens.map(() => 0) }, targets, index);
  if (!datum.lossFnInputs.advantages || !datum.lossFnInputs.logprobs) throw new FutureFailure(`datum ${index}: ${kind} needs advantages and logprobs`, "user");
  const advantages = aligned("advantages", 0);
  // Positions with a zero advantage add nothing to these losses' gradients; leaving them out of the mask keeps
  // prompt positions (sampler logprob 0) out of the clip fraction and out of DRO's quadratic penalty.
  return checkTargets({ tokens, lossMask: advantages.map((advantage) => (advantage !== 0 ? 1 : 0)), samplerLogprobs: aligned("logprobs", 0), advantages }, targets, index);
}

// The tiny learner scores each position's next input token, so a trained target must be model_input shifted by one.
// Untrained positions may hold anything (tinker-cookbook's rl_loop puts 0 under the prompt); their logprobs are then
// the next input token's, where the service would score the given target.
function checkTargets(row: Row, targets: readonly number[], index: number): Row {
  for (let position = 0; position < targets.length - 1; position++) {
    if (row.lossMask[position + 1] !== 0 && row.tokens[position + 1] !== targets[position]) {
      throw new FutureFailure(`datum ${index}: target_tokens[${position}] is trained but is not model_input shifted by one (the local server scores next tokens only)`, "user");
    }
  }
  return row;
}

// A forward request's summed loss (no gradient): cross_entropy −Σ w·log p; the policy losses their importance-sampling
// form −Σ (p/q)·A, which ppo, cispo and dro equal before any clipping or penalty applies.
function forwardLoss(row: Row, logprobs: readonly number[], kind: LossConfig["kind"]): number {
  let loss = 0;
  for (let position = 1; position < row.tokens.length; position++) {
    if (row.lossMask[position] === 0) continue;
    const logprob = logprobs[position]!;
    loss -= kind === "cross_entropy" ? row.lossMask[position]! * logprob : Math.exp(logprob - row.samplerLogprobs[position]!) * row.advantages[position]!;
  }
  return loss;
}
