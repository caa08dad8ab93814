import { describe, expect, it } from "vitest";
import { InferenceEngine } from "../../../src/models/tiny/inference-engine.js";
import { TinyModelConfigSchema } from "../../../src/models/tiny/model-config.js";
import { initialWeights } from "../../../src/models/tiny/model-weights.js";
import { createRng } from "../../../src/core/random.js";
import { logSoftmax, sampleChoice, type SampleOptions } from "../../../src/models/tiny/sampler.js";
import { encodeText, VOCABULARY } from "../../../src/models/tiny/tokenizer.js";

const config = TinyModelConfigSchema.parse({ vocabSize: VOCABULARY.length, contextLength: 32, width: 16, layers: 1, heads: 2 });
// Freshly initialised: a nearly flat distribution, so sampling at temperature 1 visibly depends on the seed.
const weights = initialWeights(config, 2);
const engine = new InferenceEngine(config, weights);
const base: SampleOptions = { maxTokens: 10, temperature: 1, topP: 1, stop: [], topLogprobs: 0 };

async function sample(options: Partial<SampleOptions>, seed: number) {
  const cache = engine.createCache();
  const logits = engine.prefill(encodeText("3+4"), cache);
  return sampleChoice(engine, cache, logits, { ...base, ...options }, createRng(seed));
}

describe("sampler", () => {
  it("is greedy at temperature 0 whatever the seed", async () => {
    const first = await sample({ temperature: 0 }, 1);
    expect((await sample({ temperature: 0 }, 2)).tokenIds).toEqual(first.tokenIds);
    const cache = engine.createCache();
    const logprobs = logSoftmax(engine.prefill(encodeText("3+4"), cache));
    expect(first.tokenIds[0]).toBe(logprobs.indexOf(Math.max(...logprobs)));
  });

  it("keeps only the most likely token when top_p is tiny", async () => {
    const greedy = await sample({ temperature: 0 }, 1);
    expect((await sample({ topP: 1e-9 }, 7)).tokenIds).toEqual(greedy.tokenIds);
  });

  it("varies with the seed at temperature 1 and replays with the same seed", async () => {
    const runs = await Promise.all([1, 2, 3, 4].map((seed) => sample({}, seed)));
    expect(new Set(runs.map((run) => run.tokenIds.join(","))).size).toBeGreaterThan(1);
    expect((await sample({}, 3)).tokenIds).toEqual(runs[2]?.tokenIds);
  });

  it("reports top alternatives in descending order that include the best token", async () => {
    const choice = await sample({ topLogprobs: 3 }, 5);
    for (const [index, alternatives] of choice.topLogprobs.entries()) {
      expect(alternatives).toHaveLength(3);
      expect(alternatives[0]!.logprob).toBeGreaterThanOrEqual(alternatives[2]!.logprob);
      expect(alternatives[0]!.logprob).toBeGreaterThanOrEqual(choice.logprobs[index]!);
    }
  });
});
