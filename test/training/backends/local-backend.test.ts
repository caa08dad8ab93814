import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { readCheckpoint, writeCheckpoint } from "../../../src/models/tiny/checkpoint.js";
import { initialWeights, type ModelWeights } from "../../../src/models/tiny/model-weights.js";
import type { TinyModelConfig } from "../../../src/models/tiny/model-config.js";
import { TinyModel } from "../../../src/models/tiny/tiny-model.js";
import { VOCABULARY } from "../../../src/models/tiny/tokenizer.js";
import { LossConfigSchema, OptimizerConfigSchema, type TrainBatch, type TrainingBackend } from "../../../src/training/backend.js";
import { createLocalBackend } from "../../../src/training/backends/local-backend.js";
import { UnsupportedRequestError } from "../../../src/training/errors/unsupported-request-error.js";

// A model small enough to train in milliseconds; the plain-JS engine of TinyModel is the reference sampler.
const config: TinyModelConfig = { vocabSize: VOCABULARY.length, contextLength: 16, width: 16, layers: 1, heads: 2, mlpRatio: 2 };
const directory = mkdtempSync(path.join(tmpdir(), "rllm-local-backend-"));
const published: ModelWeights[] = [];
let sampler: TinyModel;
let backend: TrainingBackend;

// prompt <|user|> a b <|end|> <|assistant|>, completion x y <|end|>
const tokens = [2, 20, 21, 4, 3, 40, 41, 4];
const lossMask = [0, 0, 0, 0, 0, 1, 1, 1];

beforeAll(async () => {
  const weights = initialWeights(config, 3);
  await writeCheckpoint(path.join(directory, "start"), config, weights);
  sampler = await TinyModel.load(path.join(directory, "start"));
  backend = createLocalBackend({
    config,
    weights,
    startSampler: async () => ({
      baseUrl: "http://127.0.0.1:1/v1",
      model: "tiny-test",
      update: async (next) => {
        published.push(next);
        sampler.publish(next);
      },
      close: async () => {},
    }),
  });
  await backend.open({ baseModel: "tiny-test" });
});
afterAll(() => backend.close());

function batch(advantage: number, overrides: Partial<TrainBatch> = {}): TrainBatch {
  return {
    sequences: [{ tokens, lossMask, samplerLogprobs: sampler.sequenceLogprobs([tokens])[0]!, advantage }],
    loss: LossConfigSchema.parse({ kind: "importance_sampling" }),
    lossAggregation: "token-mean",
    merge: "prefix",
    optimizer: OptimizerConfigSchema.parse({ learningRate: 0.01 }),
    substeps: 1,
    ...overrides,
  };
}
const completionLogprob = () => sampler.sequenceLogprobs([tokens])[0]!.slice(5).reduce((sum, value) => sum + value, 0);

describe("local backend", () => {
  it("reports almost no learner-vs-sampler logprob mismatch on its own samples", async () => {
    const { stepId } = await backend.submit(batch(0));
    const status = await backend.status(stepId);
    expect(status.state).toBe("done");
    expect(status.metrics.logprobMismatchMean).toBeLessThan(1e-4);
    expect(status.metrics.trainedTokens).toBe(3);
  });

  it("raises the likelihood of a positively rewarded completion and publishes a new version", async () => {
    const before = completionLogprob();
    for (let step = 0; step < 5; step++) {
      await backend.submit(batch(1));
      await backend.publish();
    }
    expect(completionLogprob()).toBeGreaterThan(before + 0.5);
    const policy = await backend.publish();
    expect(policy.version).toBe(6);
  });

  it("lowers it for a negative advantage under clipped PPO", async () => {
    const before = completionLogprob();
    // Several steps: Adam's momentum from the positive steps above has to turn round first.
    for (let step = 0; step < 10; step++) {
      await backend.submit(batch(-1, { loss: LossConfigSchema.parse({ kind: "ppo" }) }));
      await backend.publish();
    }
    expect(completionLogprob()).toBeLessThan(before - 0.5);
  });

  it("restores weights, optimizer state and version from a checkpoint", async () => {
    const saved = await backend.checkpoint(path.join(directory, "checkpoint"));
    const savedWeights = published.at(-1)!;
    await backend.submit(batch(1));
    const after = await backend.publish();
    const restored = await backend.restore(saved.path);
    expect(restored.version).toBe(after.version - 1);
    expect(published.at(-1)!.get("tokenEmbedding")).toEqual(savedWeights.get("tokenEmbedding"));
  });

  it("writes checkpoints that load as tiny models, so a trained policy can be served", async () => {
    const policy = await backend.publish();
    const saved = await backend.checkpoint(path.join(directory, "servable"));
    const { manifest, weights } = await readCheckpoint(saved.path);
    expect(manifest.config).toEqual(config);
    expect(manifest.training).toMatchObject({ objective: "rllm train, local backend", policyVersion: policy.version });
    for (const [name, values] of published.at(-1)!) expect(weights.get(name)).toEqual(values);
    const served = await TinyModel.load(saved.path);
    expect(served).toBeInstanceOf(TinyModel);
  });

  it("refuses a loss's option given with another loss instead of ignoring it", async () => {
    const request = backend.submit(batch(1, { loss: LossConfigSchema.parse({ kind: "cispo", dualClip: 3 }) }));
    await expect(request).rejects.toBeInstanceOf(UnsupportedRequestError);
    await expect(request).rejects.toThrow(/cannot honour option "dualClip" with loss "cispo". Supported: ppo/);
  });

  it("refuses geo_mean with an aggregation other than its own sequence mean", async () => {
    const request = backend.submit(batch(1, { loss: LossConfigSchema.parse({ kind: "geo_mean" }), lossAggregation: "token-mean" }));
    await expect(request).rejects.toThrow(/cannot honour lossAggregation with loss geo_mean "token-mean". Supported: seq-mean-token-mean/);
  });

  it("trains with truncated importance sampling and reports the trainer-to-sampler ratio", async () => {
    const run = async (tisCap: number) => (await backend.status((await backend.submit(batch(0, { loss: LossConfigSchema.parse({ kind: "ppo", tisCap }) }))).stepId)).metrics;
    // Every ratio is above a tiny cap and none above a huge one.
    const tight = await run(1e-6);
    const loose = await run(1e6);
    expect(tight.importanceRatioClippedShare).toBe(1);
    expect(loose.importanceRatioClippedShare).toBe(0);
    expect(loose.importanceRatioMean).toBeGreaterThan(0);
    expect(loose.importanceRatioMax).toBeGreaterThanOrEqual(loose.importanceRatioMean!);
  });

  it("refuses a sequence longer than the model's context instead of truncating it", async () => {
    const long = Array.from({ length: 20 }, () => 30);
    const request = backend.submit(
      batch(1, { sequences: [{ tokens: long, lossMask: long.map(() => 1), samplerLogprobs: long.map(() => 0), advantage: 1 }] }),
    );
    await expect(request).rejects.toThrow(/sequence length "20"/);
  });
});

describe("local backend micro-batches", () => {
  // Three rows of different lengths and advantages: the gradient of the whole batch, whatever the split.
  const rows = [
    { tokens: [2, 20, 21, 4, 3, 40, 41, 4], lossMask: [0, 0, 0, 0, 0, 1, 1, 1], advantage: 1 },
    { tokens: [2, 22, 4, 3, 42, 4], lossMask: [0, 0, 0, 0, 1, 1], advantage: -0.5 },
    { tokens: [2, 23, 24, 25, 4, 3, 43, 44, 45, 46, 4], lossMask: [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1], advantage: 0.25 },
  ];

  async function weightsAfterOneStep(microBatchPositions: number, lossAggregation: TrainBatch["lossAggregation"]) {
    const weights = initialWeights(config, 5);
    const reference = await TinyModel.load(path.join(directory, "start"));
    reference.publish(weights);
    let latest: ModelWeights | undefined;
    const local = createLocalBackend({
      config,
      weights,
      microBatchPositions,
      startSampler: async () => ({ baseUrl: "http://127.0.0.1:1/v1", model: "tiny-test", update: async (next) => {
        latest = next;
      }, close: async () => {} }),
    });
    await local.open({ baseModel: "tiny-test" });
    const { stepId } = await local.submit({
      sequences: rows.map((row) => ({ ...row, samplerLogprobs: reference.sequenceLogprobs([row.tokens])[0]! })),
      loss: LossConfigSchema.parse({ kind: "ppo" }),
      lossAggregation,
      merge: "prefix",
      // Plain gradient steps would hide a scale error under Adam's normalisation; a huge epsilon makes Adam ≈ SGD.
      optimizer: OptimizerConfigSchema.parse({ learningRate: 1, epsilon: 1e3, gradClipNorm: 1e9 }),
      substeps: 1,
    });
    const metrics = (await local.status(stepId)).metrics;
    await local.publish();
    await local.close();
    return { weights: latest!, metrics };
  }

  it.each(["token-mean", "seq-mean-token-mean", "sum"] as const)("sums to the whole batch's gradient (%s)", async (aggregation) => {
    const whole = await weightsAfterOneStep(1_000, aggregation);
    const oneRowEach = await weightsAfterOneStep(11, aggregation);
    for (const name of ["tokenEmbedding", "layer0.qkv.weight", "finalNorm.scale"]) {
      const expected = whole.weights.get(name)!;
      const actual = oneRowEach.weights.get(name)!;
      const start = initialWeights(config, 5).get(name)!;
      // The step moved the weights, and both splits moved them the same way.
      expect(Math.max(...expected.map((value, index) => Math.abs(value - start[index]!)))).toBeGreaterThan(1e-6);
      for (const [index, value] of expected.entries()) expect(actual[index]).toBeCloseTo(value, 6);
    }
    expect(oneRowEach.metrics.loss).toBeCloseTo(whole.metrics.loss!, 6);
    expect(oneRowEach.metrics.trainedTokens).toBe(10);
  });
});

/**
 * A fresh local backend on its own weights, whose sampler is `policy`; `step(advantage, loss)` submits the one
 * sequence with that advantage and loss options, publishes, and returns the step's metrics.
 */
async function freshBackend(seed: number) {
  const weights = initialWeights(config, seed);
  const policy = await TinyModel.load(path.join(directory, "start"));
  policy.publish(weights);
  const local = createLocalBackend({
    config,
    weights,
    startSampler: async () => ({ baseUrl: "http://127.0.0.1:1/v1", model: "tiny-test", update: async (next) => policy.publish(next), close: async () => {} }),
  });
  await local.open({ baseModel: "tiny-test" });
  const logprob = () => policy.sequenceLogprobs([tokens])[0]!.slice(5).reduce((sum, value) => sum + value, 0);
  const step = async (advantage: number, loss: { klCoef?: number; minEntropy?: number }) => {
    const { stepId } = await local.submit({
      sequences: [{ tokens, lossMask, samplerLogprobs: policy.sequenceLogprobs([tokens])[0]!, advantage }],
      loss: LossConfigSchema.parse({ kind: "importance_sampling", ...loss }),
      lossAggregation: "token-mean",
      merge: "prefix",
      optimizer: OptimizerConfigSchema.parse({ learningRate: 0.01 }),
      substeps: 1,
    });
    await local.publish();
    return (await local.status(stepId)).metrics;
  };
  return { local, logprob, step };
}

describe("local backend KL penalty to the reference policy", () => {
  it("measures KL 0 at the start, > 0 once trained away, and with advantage 0 pulls the policy back", async () => {
    const { local, logprob, step } = await freshBackend(7);
    const start = logprob();
    expect((await step(1, { klCoef: 0.1 })).klToReference).toBeCloseTo(0, 6);
    for (let index = 0; index < 4; index++) await step(1, { klCoef: 0.1 });
    const trained = logprob();
    expect(trained).toBeGreaterThan(start + 0.3);
    expect((await step(0, { klCoef: 1 })).klToReference).toBeGreaterThan(1e-3);
    for (let index = 0; index < 10; index++) await step(0, { klCoef: 1 });
    // Only the KL term has a gradient now, and it leads back toward the start's likelihood.
    expect(Math.abs(logprob() - start)).toBeLessThan(Math.abs(trained - start) / 2);
    expect((await step(0, {})).klToReference).toBeUndefined();
    await local.close();
  });
});

describe("local backend forking-token selection (loss.minEntropy)", () => {
  it("trains only tokens whose entropy reaches the threshold and reports the share it kept", async () => {
    const { local, logprob, step } = await freshBackend(11);
    const start = logprob();
    // An untrained model is near uniform over 109 tokens (entropy ≈ ln 109 ≈ 4.7 nats): nothing reaches 100 nats.
    const none = await step(1, { minEntropy: 100 });
    expect(none.selectedTokenFraction).toBe(0);
    expect(logprob()).toBeCloseTo(start, 6);
    const all = await step(1, { minEntropy: 1 });
    expect(all.selectedTokenFraction).toBe(1);
    expect(logprob()).toBeGreaterThan(start + 0.01);
    await local.close();
  });
});

// Last: it trains the shared backend, and the tests above count its policy versions from the start.
describe("local backend forward", () => {
  it("computes the cross-entropy of the masked tokens without updating (forward), as a cross_entropy step reports it", async () => {
    // The sampler gets the learner's weights first, so the reference below sees the same model.
    await backend.publish();
    const crossEntropy = batch(1, { loss: LossConfigSchema.parse({ kind: "cross_entropy" }) });
    const before = await backend.forward!(crossEntropy);
    expect(before.tokens).toBe(3);
    // The plain-JS engine on the same weights is the reference: mean negative logprob of the 3 completion tokens.
    expect(before.loss).toBeCloseTo(-completionLogprob() / 3, 4);
    expect((await backend.forward!(crossEntropy)).loss).toBe(before.loss);
    const { stepId } = await backend.submit(crossEntropy);
    expect((await backend.status(stepId)).metrics.loss).toBeCloseTo(before.loss, 5);
    // The step changed the weights that forward reads.
    expect((await backend.forward!(crossEntropy)).loss).not.toBe(before.loss);
  });
});
