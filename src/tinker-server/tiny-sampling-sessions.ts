/** The local Tinker server's sampling sessions: each holds one policy version's weights, sampled with the tiny model's engine. */
import type { ModelWeights } from "../models/tiny/model-weights.js";
import { TinyModel } from "../models/tiny/tiny-model.js";
import { tokenText } from "../models/tiny/tokenizer.js";
import type { SampledSequence } from "../llm/tinker/tinker-proto.js";
import { stopIndex } from "./stop-index.js";
import type { SampleRequest, SamplerSource, SamplingSessions } from "./tinker-base-model.js";

// Engines kept at once; a session whose engine was dropped rebuilds it from its weights on the next sample.
const CACHED_ENGINES = 4;

/** Sessions by id, each on the weights it was created with. */
export class TinySamplingSessions implements SamplingSessions {
  private readonly weightsBySession = new Map<string, ModelWeights>();
  private readonly sources = new Map<string, SamplerSource>();
  private readonly engines = new Map<ModelWeights, TinyModel>();
  private count = 0;

  constructor(private readonly checkpointDirectory: string | undefined) {}

  /** A new session on `weights`. */
  create(sessionId: string, weights: unknown, source: SamplerSource): string {
    const id = `${sessionId}:sample:${this.count++}`;
    this.weightsBySession.set(id, weights as ModelWeights);
    this.sources.set(id, source);
    return id;
  }

  /** The base model and sampler path of session `id`, if it exists. */
  source(id: string): SamplerSource | undefined {
    return this.sources.get(id);
  }

  has(id: string): boolean {
    return this.weightsBySession.has(id);
  }

  /** Samples `numSamples` continuations; a stop token other than the model's end token cuts the sequence there. */
  async sample(id: string, request: SampleRequest): Promise<SampledSequence[]> {
    const model = await this.engine(this.weightsBySession.get(id)!);
    const choices = await model.generate(request.promptTokenIds, {
      n: request.numSamples,
      maxTokens: request.maxTokens,
      temperature: request.temperature,
      topP: request.topP,
      stop: [],
      topLogprobs: 0,
      ...(request.seed !== undefined ? { seed: request.seed } : {}),
    });
    return choices.map((choice) => {
      const cut = stopIndex(choice.tokenIds, request.stopTokenIds, request.stopStrings, tokenText);
      const end = cut === -1 ? choice.tokenIds.length : cut + 1;
      return {
        tokens: choice.tokenIds.slice(0, end),
        logprobs: choice.logprobs.slice(0, end),
        stopReason: cut === -1 ? choice.finishReason : "stop",
      };
    });
  }

  /** Each prompt token's logprob given those before it: null for the first, and for those before the last `lastN`. */
  async promptLogprobs(id: string, promptTokenIds: readonly number[], lastN?: number): Promise<(number | null)[]> {
    const model = await this.engine(this.weightsBySession.get(id)!);
    const logprobs = model.sequenceLogprobs([promptTokenIds])[0]!;
    const firstScored = lastN === undefined ? 1 : promptTokenIds.length - lastN;
    return logprobs.map((logprob, index) => (index >= Math.max(1, firstScored) ? logprob : null));
  }

  private async engine(weights: ModelWeights): Promise<TinyModel> {
    const cached = this.engines.get(weights);
    if (cached) return cached;
    const model = await TinyModel.load(this.checkpointDirectory);
    model.publish(weights);
    this.engines.set(weights, model);
    if (this.engines.size > CACHED_ENGINES) this.engines.delete(this.engines.keys().next().value!);
    return model;
  }
}
