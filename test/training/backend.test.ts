import { describe, expect, it } from "vitest";
import {
  assertBatchSupported,
  LossConfigSchema,
  OptimizerConfigSchema,
  type BackendCapabilities,
  type TrainBatch,
} from "../../src/training/backend.js";
import { UnsupportedRequestError } from "../../src/training/errors/unsupported-request-error.js";

// Shaped like a Tinker backend: sums only, importance sampling and PPO, prefix merging.
const tinkerLike: BackendCapabilities = {
  name: "tinker",
  losses: ["importance_sampling", "ppo"],
  lossAggregations: ["sum"],
  merges: ["prefix"],
  sampling: "native",
  fullFineTune: false,
  lora: true,
  maxContext: 32768,
  checkpoints: true,
  referenceKl: false,
  entropySelection: false,
};
const batch = (overrides: Partial<TrainBatch>): TrainBatch => ({
  sequences: [{ tokens: [1, 2], lossMask: [0, 1], samplerLogprobs: [0, -1], advantage: 1 }],
  loss: LossConfigSchema.parse({}),
  lossAggregation: "sum",
  merge: "prefix",
  optimizer: OptimizerConfigSchema.parse({ learningRate: 1e-5 }),
  substeps: 1,
  ...overrides,
});

describe("assertBatchSupported", () => {
  it("accepts a batch inside the capabilities", () => {
    expect(() => assertBatchSupported(tinkerLike, batch({}))).not.toThrow();
  });

  it.each([
    [{ lossAggregation: "token-mean" as const }, /lossAggregation "token-mean". Supported: sum/],
    [{ merge: "per_call" as const }, /merge "per_call". Supported: prefix/],
    [{ loss: LossConfigSchema.parse({ kind: "dro" }) }, /loss "dro". Supported: importance_sampling, ppo/],
    [{ loss: LossConfigSchema.parse({ kind: "ppo", beta: 0.1 }) }, /option "beta" with loss "ppo"/],
    [{ loss: LossConfigSchema.parse({ kind: "ppo", klCoef: 0.1 }) }, /loss.klCoef "0.1". Supported: 0 \(no KL penalty/],
    [{ loss: LossConfigSchema.parse({ kind: "ppo", minEntropy: 0.05 }) }, /loss.minEntropy "0.05". Supported: 0 \(every trained token\)/],
  ])("refuses what the backend cannot honour instead of ignoring it (%o)", (overrides, message) => {
    expect(() => assertBatchSupported(tinkerLike, batch(overrides))).toThrow(UnsupportedRequestError);
    expect(() => assertBatchSupported(tinkerLike, batch(overrides))).toThrow(message);
  });
});

describe("assertBatchSupported with fixed options", () => {
  const fixed: BackendCapabilities = { ...tinkerLike, fixedOptions: { substeps: 1, "optimizer.epsilon": 1e-8 } };

  it("accepts a batch whose fixed options have the one value the backend honours", () => {
    expect(() => assertBatchSupported(fixed, batch({}))).not.toThrow();
  });

  it.each([
    [{ substeps: 2 }, `Backend "tinker" cannot honour substeps "2". Supported: 1.`],
    [{ optimizer: OptimizerConfigSchema.parse({ learningRate: 1e-5, epsilon: 1e-6 }) }, `cannot honour optimizer.epsilon "0.000001". Supported: 1e-8.`],
  ])("refuses any other value, naming the dotted option (%o)", (overrides, message) => {
    expect(() => assertBatchSupported(fixed, batch(overrides))).toThrow(message);
  });
});
