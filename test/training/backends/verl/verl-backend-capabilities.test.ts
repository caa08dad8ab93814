import { describe, expect, it } from "vitest";
import { assertBatchSupported, LossAggregationSchema, LossConfigSchema, OptimizerConfigSchema, type TrainBatch } from "../../../../src/training/backend.js";
import { VerlTrainingBackend } from "../../../../src/training/backends/verl/verl-backend.js";
import { verlBackendSettings } from "../../../../src/training/backends/verl/verl-backend-settings.js";

// Constructing the backend starts nothing; its service starts on open.
const capabilities = new VerlTrainingBackend(verlBackendSettings({})).capabilities();
const batch = (overrides: Partial<TrainBatch>): TrainBatch => ({
  sequences: [],
  loss: LossConfigSchema.parse({ kind: "ppo" }),
  lossAggregation: "token-mean",
  merge: "prefix",
  optimizer: OptimizerConfigSchema.parse({ learningRate: 1e-6 }),
  substeps: 1,
  ...overrides,
});

describe("verl backend capabilities", () => {
  it("accepts what a verl actor honours: ppo, every agg_loss mode, a KL penalty to the reference", () => {
    for (const lossAggregation of LossAggregationSchema.options) {
      expect(() => assertBatchSupported(capabilities, batch({ lossAggregation, loss: LossConfigSchema.parse({ kind: "ppo", klCoef: 0.001 }) }))).not.toThrow();
    }
  });

  it.each([
    [{ loss: LossConfigSchema.parse({ kind: "importance_sampling" }) }, `cannot honour loss "importance_sampling". Supported: ppo, gspo, cispo, clip_cov, kl_cov, geo_mean, dro.`],
    [{ loss: LossConfigSchema.parse({ kind: "ppo", minEntropy: 0.1 }) }, `cannot honour loss.minEntropy "0.1"`],
    [{ substeps: 4 }, `cannot honour substeps "4". Supported: 1.`],
    [{ optimizer: OptimizerConfigSchema.parse({ learningRate: 1e-6, beta2: 0.95 }) }, `cannot honour optimizer.beta2 "0.95". Supported: 0.999.`],
  ])("refuses each train.json value verl cannot honour, naming the key (%#)", (overrides, message) => {
    expect(() => assertBatchSupported(capabilities, batch(overrides))).toThrow(message);
  });
});

describe("verlBackendSettings", () => {
  it("reads the bridge's address, token and limits from RLLM_VERL_* with defaults", () => {
    expect(verlBackendSettings({})).toEqual({ host: "127.0.0.1", port: 8377, registerTimeoutMs: 1_800_000, pauseToleranceMs: 1_800_000, maxContext: 32768 });
    expect(verlBackendSettings({ RLLM_VERL_BRIDGE_HOST: "0.0.0.0", RLLM_VERL_BRIDGE_TOKEN: "t", RLLM_VERL_REGISTER_TIMEOUT: "5" })).toMatchObject({ host: "0.0.0.0", token: "t", registerTimeoutMs: 5000 });
  });

  it("names the variable that holds a bad value", () => {
    expect(() => verlBackendSettings({ RLLM_VERL_BRIDGE_PORT: "http" })).toThrow("environment variable RLLM_VERL_BRIDGE_PORT:");
  });
});
