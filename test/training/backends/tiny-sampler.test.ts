import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { writeCheckpoint } from "../../../src/models/tiny/checkpoint.js";
import { initialWeights } from "../../../src/models/tiny/model-weights.js";
import type { TinyModelConfig } from "../../../src/models/tiny/model-config.js";
import { TinyModel } from "../../../src/models/tiny/tiny-model.js";
import { VOCABULARY } from "../../../src/models/tiny/tokenizer.js";
import { createLocalBackend } from "../../../src/training/backends/local-backend.js";
import { startTinySampler } from "../../../src/training/backends/tiny-sampler.js";
import { LossConfigSchema, OptimizerConfigSchema, type PolicyRef, type TrainingBackend } from "../../../src/training/backend.js";

const config: TinyModelConfig = { vocabSize: VOCABULARY.length, contextLength: 24, width: 16, layers: 1, heads: 2, mlpRatio: 2 };
let backend: TrainingBackend;
let policy: PolicyRef;

beforeAll(async () => {
  const directory = mkdtempSync(path.join(tmpdir(), "rllm-tiny-sampler-"));
  const weights = initialWeights(config, 5);
  await writeCheckpoint(directory, config, weights);
  const model = await TinyModel.load(directory);
  backend = createLocalBackend({ config, weights, startSampler: (start) => startTinySampler(model, start) });
  policy = await backend.open({ baseModel: directory });
});
afterAll(() => backend.close());

describe("local backend with the tiny model's server as sampler", () => {
  it("serves the policy over the OpenAI protocol", async () => {
    const response = await fetch(`${policy.openaiBaseUrl}/models`);
    expect(response.status).toBe(200);
  });

  it("samples token ids with logprobs that the learner reproduces", async () => {
    const prompt = [2, 20, 21, 4, 3];
    const { completions, policyVersion } = await backend.sample({ policy, promptTokenIds: prompt, n: 2, maxTokens: 6, temperature: 1, seed: 1 });
    expect(policyVersion).toBe(0);
    expect(completions).toHaveLength(2);
    const [first] = completions;
    expect(first!.tokenIds.length).toBeGreaterThan(0);
    expect(first!.logprobs).toHaveLength(first!.tokenIds.length);
    // Train on the sample with advantage 0: the step's mismatch compares learner and sampler on the same tokens.
    const tokens = [...prompt, ...first!.tokenIds];
    const { stepId } = await backend.submit({
      sequences: [{
        tokens,
        lossMask: [...prompt.map(() => 0), ...first!.tokenIds.map(() => 1)],
        samplerLogprobs: [...prompt.map(() => 0), ...first!.logprobs],
        advantage: 0,
      }],
      loss: LossConfigSchema.parse({ kind: "importance_sampling" }),
      lossAggregation: "sum",
      merge: "prefix",
      optimizer: OptimizerConfigSchema.parse({ learningRate: 1e-3 }),
      substeps: 1,
    });
    const status = await backend.status(stepId);
    expect(status.metrics.logprobMismatchMean).toBeLessThan(1e-3);
  });

  it("refuses stop token ids it would otherwise ignore", async () => {
    await expect(
      backend.sample({ policy, promptTokenIds: [2, 3], n: 1, maxTokens: 2, temperature: 1, stopTokenIds: [4] }),
    ).rejects.toThrow(/stopTokenIds/);
  });
});
