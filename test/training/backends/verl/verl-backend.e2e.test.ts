// The verl backend in process with a trainer registering over local HTTP: the policy it opens, and a batch refused
// because the running job's actor was launched with other settings.
import { afterEach, describe, expect, it } from "vitest";
import { LossConfigSchema, OptimizerConfigSchema } from "../../../../src/training/backend.js";
import { VerlTrainingBackend } from "../../../../src/training/backends/verl/verl-backend.js";
import { UnsupportedRequestError } from "../../../../src/training/errors/unsupported-request-error.js";

let backend: VerlTrainingBackend;
afterEach(async () => {
  await backend.close();
});

async function openWithTrainer(learningRate: number) {
  backend = new VerlTrainingBackend({ host: "127.0.0.1", port: 0, registerTimeoutMs: 10_000, pauseToleranceMs: 1000, maxContext: 100, stopTimeoutMs: 10 });
  const url = await backend.bridgeUrl();
  const registered = fetch(`${url}/bridge/v1/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      instanceId: "job-1",
      servedModel: "Qwen/Qwen3-0.6B",
      serverAddresses: ["127.0.0.1:9"],
      maxPromptLength: 50,
      maxResponseLength: 50,
      globalStep: 0,
      settings: { lossMode: "vanilla", clipRatioLow: 0.2, clipRatioHigh: 0.28, lossAggMode: "token-mean", useKlLoss: false, klLossCoef: 0.001, learningRate, weightDecay: 0, gradClip: 1, ppoEpochs: 1, clipRatioC: 1e9 },
    }),
  });
  const policy = await backend.open();
  await registered;
  return policy;
}

const batch = {
  sequences: [{ tokens: [1, 2, 3], lossMask: [0, 1, 1], samplerLogprobs: [0, -1, -1], advantage: 1, promptLength: 1 }],
  loss: LossConfigSchema.parse({ kind: "ppo", clipLow: 0.2, clipHigh: 0.28 }),
  lossAggregation: "token-mean" as const,
  merge: "prefix" as const,
  optimizer: OptimizerConfigSchema.parse({ learningRate: 2e-4, gradClipNorm: 1 }),
  substeps: 1,
};

describe("verl backend", () => {
  it("opens the job's served model behind the router's OpenAI URL, as version 0", async () => {
    const policy = await openWithTrainer(2e-4);
    expect(policy).toMatchObject({ backend: "verl", modelId: "Qwen/Qwen3-0.6B", version: 0 });
    expect(policy.openaiBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });

  it("refuses a batch whose optimizer differs from the running job's actor, naming the train.json and Hydra keys", async () => {
    await openWithTrainer(1e-6);
    const submitted = backend.submit(batch);
    await expect(submitted).rejects.toThrow(UnsupportedRequestError);
    await expect(submitted).rejects.toThrow(`Backend "verl" cannot honour optimizer.learningRate "0.0002". Supported: 0.000001 (the running job's actor_rollout_ref.actor.optim.lr;`);
  });
});
