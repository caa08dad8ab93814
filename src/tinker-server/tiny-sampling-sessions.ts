/** The local Tinker server's sampling sessions: each holds one policy version's weights, sampled with the tiny model's engine. */
import type { ModelWeights } from "../models/tiny/model-weights.js";
import { TinyModel } from "../models/tiny/tiny-model.js";
import type { SampledSequence } from "../training/backends/tinker/tinker-proto.js";

/** asample's parameters as the server reads them. */
export interface TinySampleRequest {
  promptTokenIds: number[];
  numSamples: number;
  maxTokens: number;
  temperature: number;
  topP: number;
  seed?: number;
  stopTokenIds: number[];
}

// Engines kept at once; a session whose engine was dropped rebuilds it from its weights on the next sample.
const CACHED_ENGINES = 4;

/** Sessions by id, each on the weights it was created with. */
export class TinySamplingSessions {
  private readonly weightsBySession = new Map<string, ModelWeights>();
  private readonly engines = new Map<ModelWeights, TinyModel>();
  private count = 0;

  constructor(private readonly checkpointDirectory: string | undefined) {}

  /** A new session on `weights`. */
  create(sessionId: string, weights: ModelWeights): string {
    const id = `${sessionId}:sample:${this.count++}`;
    this.weightsBySession.set(id, weights);
    return id;
  }

  has(id: string): boolean {
    return this.weightsBySession.has(id);
  }

  /** Samples `numSamples` continuations; a stop token other than the model's end token cuts the sequence there. */
  async sample(id: string, request: TinySampleRequest): Promise<SampledSequence[]> {
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
      const cut = choice.tokenIds.findIndex((token) => request.stopTokenIds.includes(token));
      const end = cut === -1 ? choice.tokenIds.length : cut + 1;
      return {
        tokens: choice.tokenIds.slice(0, end),
        logprobs: choice.logprobs.slice(0, end),
        stopReason: cut === -1 ? choice.finishReason : "stop",
      };
    });
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
