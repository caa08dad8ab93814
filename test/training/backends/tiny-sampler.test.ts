import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { writeCheckpoint } from "../../../src/models/tiny/checkpoint.js";
import { initialWeights } from "../../../src/models/tiny/model-weights.js";
import type { TinyModelConfig } from "../../../src/models/tiny/model-config.js";
import { VOCABULARY } from "../../../src/models/tiny/tokenizer.js";
import { createLocalBackend } from "../../../src/training/backends/local-backend.js";
import { startTinySampler } from "../../../src/training/backends/tiny-sampler.js";
import { LossConfigSchema, OptimizerConfigSchema, type PolicyRef, type TrainingBackend } from "../../../src/training/backend.js";
import { pinnedModelName } from "../../../src/training/backends/pinned-model-name.js";

const config: TinyModelConfig = { vocabSize: VOCABULARY.length, contextLength: 24, width: 16, layers: 1, heads: 2, mlpRatio: 2 };
let backend: TrainingBackend;
let policy: PolicyRef;

beforeAll(async () => {
  const directory = mkdtempSync(path.join(tmpdir(), "rllm-tiny-sampler-"));
  const weights = initialWeights(config, 5);
  await writeCheckpoint(directory, config, weights);
  backend = createLocalBackend({ config, weights, startSampler: (start) => startTinySampler(directory, start) });
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

describe("the sampler's policy versions (async rollouts)", () => {
  const chat = async (model: string) => {
    const response = await fetch(`${policy.openaiBaseUrl}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model, messages: [{ role: "user", content: "1+1" }], max_tokens: 4, seed: 3, logprobs: true }),
    });
    return { status: response.status, body: (await response.json()) as { weight_version?: number; choices?: { logprobs: { content: { logprob: number }[] } }[] } };
  };

  it("keeps serving a version pinned by name after the next is published, each reply naming its version", async () => {
    const before = await chat("tiny");
    // A step that moves the weights, then publish: version 1 is the newest, version 0 is still served when pinned.
    const tokens = [2, 20, 21, 4, 3, 30, 31];
    await backend.submit({
      sequences: [{ tokens, lossMask: tokens.map((_, index) => (index >= 5 ? 1 : 0)), samplerLogprobs: tokens.map(() => 0), advantage: 1 }],
      loss: LossConfigSchema.parse({ kind: "importance_sampling" }),
      lossAggregation: "sum",
      merge: "prefix",
      optimizer: OptimizerConfigSchema.parse({ learningRate: 0.05 }),
      substeps: 1,
    });
    const published = await backend.publish();
    const newest = await chat("tiny");
    const pinned = await chat(pinnedModelName("tiny", 0));
    expect(before.body.weight_version).toBe(published.version - 1);
    expect(newest.body.weight_version).toBe(published.version);
    expect(pinned.body.weight_version).toBe(published.version - 1);
    // The same seed on the old version samples what it sampled before; the new weights give other logprobs.
    expect(pinned.body.choices).toEqual(before.body.choices);
    expect(newest.body.choices![0]!.logprobs.content[0]!.logprob).not.toBe(before.body.choices![0]!.logprobs.content[0]!.logprob);
  });

  it("lets a version go once it is no longer retained, and says so by name", async () => {
    await backend.retainVersions!([]);
    const gone = await chat(pinnedModelName("tiny", 0));
    expect(gone.status).toBe(404);
    expect(JSON.stringify(gone.body)).toMatch(/Policy version 0 is no longer served/);
    expect((await chat("tiny")).status).toBe(200);
  });
});
