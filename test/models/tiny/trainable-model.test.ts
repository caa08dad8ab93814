import type * as tf from "@tensorflow/tfjs";
import { describe, expect, it } from "vitest";
import { TinyModelConfigSchema } from "../../../src/models/tiny/model-config.js";
import { initialWeights } from "../../../src/models/tiny/model-weights.js";
import { VOCABULARY } from "../../../src/models/tiny/tokenizer.js";
import { supervisedLoss, TrainableModel, type MicroBatchLoss, type TrainingRow } from "../../../src/models/tiny/trainable-model.js";

const config = TinyModelConfigSchema.parse({ vocabSize: VOCABULARY.length, contextLength: 16, width: 16, layers: 1, heads: 2, mlpRatio: 2 });
const rows: TrainingRow[] = [
  { tokens: [2, 20, 21, 4, 3, 40, 41, 4], lossMask: [0, 0, 0, 0, 0, 1, 1, 1] },
  { tokens: [2, 22, 4, 3, 42, 4], lossMask: [0, 0, 0, 0, 1, 1] },
  { tokens: [2, 23, 24, 25, 4, 3, 43, 44, 45, 46, 4], lossMask: [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1] },
];
// Negative log-likelihood over the whole batch's 10 trained tokens, whichever micro-batch a token is in.
const wholeBatchNll: MicroBatchLoss<TrainingRow> = (logprobs, micro) => ({
  loss: logprobs.mul(micro.mask).sum().neg().div(10) as tf.Scalar,
  metrics: { tokens: micro.mask.sum() as tf.Scalar },
});
const adam = { learningRate: 0.01, clipNorm: 1e9 };
// Adam normalises each entry, so float noise in a near-zero gradient becomes a visible update; a huge epsilon makes Adam ≈ SGD.
const nearSgd = { learningRate: 1, epsilon: 1e3, clipNorm: 1e9 };

async function learner() {
  return TrainableModel.fromWeights(config, initialWeights(config, 5));
}

describe("TrainableModel", () => {
  it("takes the same step from length-sorted micro-batches as from one pass, with each micro-batch reported", async () => {
    const onePass = await learner();
    const split = await learner();
    const whole = onePass.accumulatedStep(rows, wholeBatchNll, nearSgd);
    const parts = split.accumulatedStep(rows, wholeBatchNll, { ...nearSgd, microBatchPositions: 11 });
    expect(parts.loss).toBeCloseTo(whole.loss, 6);
    expect(parts.gradientNorm).toBeCloseTo(whole.gradientNorm, 5);
    // One row per micro-batch, shortest first: 2, 3 and 5 trained tokens.
    expect(parts.microBatches.map((micro) => micro.trainedTokens)).toEqual([2, 3, 5]);
    expect(parts.microBatches.map((micro) => micro.metrics.tokens)).toEqual([2, 3, 5]);
    // Logprobs before the update come back in the rows' own order.
    expect(parts.logprobs.map((row) => row.length)).toEqual(rows.map((row) => row.tokens.length));
    for (const [index, value] of parts.logprobs.flat().entries()) expect(value).toBeCloseTo(whole.logprobs.flat()[index]!, 5);
    const [after, expected] = [split.weights(), onePass.weights()];
    const start = initialWeights(config, 5);
    for (const [name, values] of expected) {
      // The step moved the weights, and both ways moved them alike.
      expect(values.some((value, index) => Math.abs(value - start.get(name)![index]!) > 1e-6)).toBe(true);
      for (const [index, value] of values.entries()) expect(after.get(name)![index]).toBeCloseTo(value, 6);
    }
    onePass.dispose();
    split.dispose();
  });

  it("step on a supervised loss is the one-pass accumulated step", async () => {
    const first = await learner();
    const second = await learner();
    const stepped = first.step(rows.map((row) => row.tokens), rows.map((row) => row.lossMask), supervisedLoss, adam);
    const accumulated = second.accumulatedStep(rows, (logprobs, micro) => ({ loss: supervisedLoss(logprobs, micro.packed) }), adam);
    expect(stepped.loss).toBe(accumulated.loss);
    expect(first.weights()).toEqual(second.weights());
    first.dispose();
    second.dispose();
  });

  it("gives the starting weights' logprobs as the reference after training, and selects tokens by entropy", async () => {
    const model = await learner();
    const start = model.sequenceLogprobs(rows.map((row) => row.tokens));
    model.accumulatedStep(rows, wholeBatchNll, adam);
    let reference: number[] = [];
    let selected: number[] = [];
    const result = model.accumulatedStep(
      rows.slice(0, 1),
      (logprobs, micro) => {
        reference = Array.from(micro.referenceLogprobs!.dataSync());
        selected = Array.from(micro.selectedTokens!.dataSync());
        return wholeBatchNll(logprobs, micro);
      },
      { ...adam, referenceLogprobs: true, minEntropy: 100 },
    );
    for (const [index, value] of reference.entries()) expect(value).toBeCloseTo(start[0]![index + 1]!, 5);
    // An untrained model's entropy is about ln 109 ≈ 4.7 nats: no token reaches 100.
    expect(selected.every((value) => value === 0)).toBe(true);
    expect(result.microBatches[0]!.selectedTokens).toBe(0);
    model.dispose();
  });

  it("restores weights and optimiser state saved by state()", async () => {
    const model = await learner();
    model.accumulatedStep(rows, wholeBatchNll, adam);
    const saved = model.state();
    const next = model.accumulatedStep(rows, wholeBatchNll, adam);
    model.restoreState(saved);
    expect(model.state()).toEqual(saved);
    // The same step again from the restored state lands on the same weights.
    const again = model.accumulatedStep(rows, wholeBatchNll, adam);
    expect(again.loss).toBe(next.loss);
    expect(saved.adamStep).toBe(1);
    model.dispose();
  });
});
