/** The embedded tiny model: a checkpoint loaded for sampling (plain-JS KV-cache engine), plus the entry points a trainer needs. */
import { packagePath } from "../../core/package-root.js";
import { readCheckpoint, writeCheckpoint, type CheckpointManifest } from "./checkpoint.js";
import { InferenceEngine } from "./inference-engine.js";
import type { TinyModelConfig } from "./model-config.js";
import type { ModelWeights } from "./model-weights.js";
import { createRng } from "../../core/random.js";
import { sharedStepScheduler } from "./step-scheduler.js";
import type { SampledChoice } from "../server/served-model.js";
import { logSoftmax, sampleChoice, type OnText, type SampleOptions } from "./sampler.js";
import { TrainableModel } from "./trainable-model.js";

/** Where the shipped checkpoint lives inside the package. */
export const SHIPPED_CHECKPOINT_DIRECTORY = packagePath("src", "models", "tiny", "checkpoint");

/** Options of one generate call: n choices of one prompt; a seed makes the call replay exactly. */
export interface GenerateOptions extends SampleOptions {
  n: number;
  seed?: number;
}

export class TinyModel {
  private engine: InferenceEngine;

  private constructor(
    readonly manifest: CheckpointManifest,
    private currentWeights: ModelWeights,
  ) {
    this.engine = new InferenceEngine(manifest.config, currentWeights);
  }

  /** Loads a checkpoint directory (the shipped one by default). */
  static async load(directory: string = SHIPPED_CHECKPOINT_DIRECTORY): Promise<TinyModel> {
    const { manifest, weights } = await readCheckpoint(directory);
    return new TinyModel(manifest, weights);
  }

  get config(): TinyModelConfig {
    return this.manifest.config;
  }

  /** Samples `n` continuations of `promptIds`; the prompt is run once and its cache copied for each choice. */
  async generate(promptIds: readonly number[], options: GenerateOptions, onText?: (choice: number, text: string) => void): Promise<SampledChoice[]> {
    const room = this.config.contextLength - promptIds.length;
    if (promptIds.length === 0) throw new RangeError("Cannot generate from an empty prompt");
    if (room < 1) throw new RangeError(`The prompt is ${promptIds.length} tokens; the context holds ${this.config.contextLength}`);
    const sampleOptions = { ...options, maxTokens: Math.min(options.maxTokens, room) };
    const engine = this.engine;
    const promptCache = engine.createCache();
    let logits: Float32Array = new Float32Array(0);
    // Token by token through the scheduler: a 100-token prefill in one go would hold the event loop ~100 ms per request.
    for (const token of promptIds) {
      await sharedStepScheduler.step();
      logits = engine.step(token, promptCache);
    }
    const baseSeed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
    const choices: SampledChoice[] = [];
    for (let index = 0; index < options.n; index++) {
      const cache = index === options.n - 1 ? promptCache : engine.cloneCache(promptCache);
      // Each choice has its own stream, so choice i does not depend on n.
      const random = createRng((baseSeed * 7919 + index * 104729) | 0);
      const forward: OnText | undefined = onText ? (text) => onText(index, text) : undefined;
      choices.push(await sampleChoice(engine, cache, logits, sampleOptions, random, forward));
    }
    return choices;
  }

  /** The sampler's logprob of every token given those before it (entry 0 is 0), for checking a learner against it. */
  sequenceLogprobs(sequences: readonly (readonly number[])[]): number[][] {
    return sequences.map((sequence) => {
      const cache = this.engine.createCache();
      const result = [0];
      for (let position = 0; position + 1 < sequence.length; position++) {
        result.push(logSoftmax(this.engine.step(sequence[position]!, cache))[sequence[position + 1]!]!);
      }
      return result;
    });
  }

  /** A tfjs learner initialised from the current weights (fresh optimiser state). */
  createLearner(): Promise<TrainableModel> {
    return TrainableModel.fromWeights(this.config, this.currentWeights);
  }

  /** Makes `weights` (e.g. a learner's after a step) the ones the sampler uses: a new policy version. */
  publish(weights: ModelWeights): void {
    this.currentWeights = weights;
    this.engine = new InferenceEngine(this.config, weights);
  }

  /** Writes the current weights as a checkpoint, keeping this model's training record unless overridden. */
  save(directory: string, record: { training?: Record<string, unknown>; metrics?: Record<string, unknown> } = {}): Promise<void> {
    return writeCheckpoint(directory, this.config, this.currentWeights, {
      training: record.training ?? this.manifest.training,
      metrics: record.metrics ?? this.manifest.metrics,
    });
  }
}

/** Loads the embedded model from `directory` (default: the shipped checkpoint). */
export function loadTinyModel(directory?: string): Promise<TinyModel> {
  return TinyModel.load(directory);
}
