import { describe, expect, it } from "vitest";
import { InferenceEngine } from "../../../src/models/tiny/inference-engine.js";
import { TinyModelConfigSchema } from "../../../src/models/tiny/model-config.js";
import { initialWeights } from "../../../src/models/tiny/model-weights.js";
import { logSoftmax } from "../../../src/models/tiny/sampler.js";
import { TrainableModel } from "../../../src/models/tiny/trainable-model.js";
import { encodeText, VOCABULARY } from "../../../src/models/tiny/tokenizer.js";

// A small random model with large weights, so that a wrong mask, norm or head would show up as a logprob difference.
const config = TinyModelConfigSchema.parse({ vocabSize: VOCABULARY.length, contextLength: 40, width: 32, layers: 2, heads: 4 });
const weights = initialWeights(config, 3);
for (const values of weights.values()) for (let index = 0; index < values.length; index++) values[index]! *= 20;

describe("tfjs learner and plain-JS sampler", () => {
  it("compute the same next-token logprobs for sequences of different lengths", async () => {
    const learner = await TrainableModel.fromWeights(config, weights);
    const sequences = [encodeText("12+7*3=33 \\boxed{33}"), encodeText("5-9")];
    const learned = learner.sequenceLogprobs(sequences);
    const engine = new InferenceEngine(config, weights);
    sequences.forEach((sequence, row) => {
      const cache = engine.createCache();
      for (let position = 0; position + 1 < sequence.length; position++) {
        const sampled = logSoftmax(engine.step(sequence[position]!, cache))[sequence[position + 1]!]!;
        expect(Math.abs(sampled - learned[row]![position + 1]!)).toBeLessThan(2e-3);
      }
      expect(learned[row]).toHaveLength(sequence.length);
    });
    learner.dispose();
  });
});
