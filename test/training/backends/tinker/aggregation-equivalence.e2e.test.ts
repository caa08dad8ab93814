/**
 * The trainer's token-mean and seq-mean-token-mean on the local backend, and the same batch through the local Tinker
 * server, which only sums, with the aggregation folded into the advantages on the client: the same parameter update.
 * Likewise SFT's validation loss: the local backend's forward and Tinker's forward-only request give the same number.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyChatTemplate } from "../../../../src/models/tiny/chat-template.js";
import { readCheckpoint } from "../../../../src/models/tiny/checkpoint.js";
import { loadTinyModel, SHIPPED_CHECKPOINT_DIRECTORY } from "../../../../src/models/tiny/tiny-model.js";
import { encodeText, END_ID } from "../../../../src/models/tiny/tokenizer.js";
import { LossConfigSchema, OptimizerConfigSchema, type LossAggregation, type TrainBatch, type TrainingBackend } from "../../../../src/training/backend.js";
import { createLocalTrainingBackend } from "../../../../src/training/backends/create-local-training-backend.js";
import { readLocalCheckpoint } from "../../../../src/training/backends/local-checkpoint.js";
import { createTinkerBackend } from "../../../../src/training/backends/tinker/tinker-backend.js";
import { TinkerHttpClient } from "../../../../src/llm/tinker/tinker-http-client.js";
import { tinyChatRenderer } from "../../../../src/llm/tinker/tiny-chat-renderer.js";
import { startLocalTinkerServer, type LocalTinkerServer } from "../../../../src/tinker-server/local-tinker-server.js";

let server: LocalTinkerServer;
const directory = mkdtempSync(path.join(tmpdir(), "tinker-equivalence-"));
beforeAll(async () => {
  server = await startLocalTinkerServer({ longPollMs: 20 });
});
afterAll(async () => {
  await server.close();
  rmSync(directory, { recursive: true, force: true });
});

// Solutions of different lengths (so the two aggregations weigh rows differently), with sampler logprobs shifted off
// the policy's on some tokens so that ppo clips a few ratios.
async function batch(aggregation: LossAggregation): Promise<TrainBatch> {
  const model = await loadTinyModel();
  const cases = [
    ["12+7=", "19"],
    ["3*4-5=", "7"],
    ["8+8+8=", "24 because 8+8=16"],
    ["9-2=", "5"],
  ] as const;
  const sequences = cases.map(([question, answer], index) => {
    const prompt = applyChatTemplate([{ role: "user", content: question }]);
    const tokens = [...prompt, ...encodeText(answer), END_ID];
    const logprobs = model.sequenceLogprobs([tokens])[0]!;
    return {
      tokens,
      lossMask: tokens.map((_, position) => (position >= prompt.length ? 1 : 0)),
      samplerLogprobs: logprobs.map((value, position) => value + (position % 3 === 0 ? 0.4 : 0)),
      advantage: index % 2 === 0 ? 1.5 : -0.75,
    };
  });
  return {
    sequences,
    loss: LossConfigSchema.parse({ kind: "ppo", clipLow: 0.2, clipHigh: 0.28 }),
    lossAggregation: aggregation,
    merge: "prefix",
    // Adam's first step is lr·g/(|g| + ε): with a small ε any scale of the gradient gives the same step, so a large ε
    // keeps the step proportional to the gradient and a wrongly scaled loss visible.
    optimizer: OptimizerConfigSchema.parse({ learningRate: 1, epsilon: 1 }),
    substeps: 1,
  };
}

async function finished(backend: TrainingBackend, stepId: string) {
  for (;;) {
    const status = await backend.status(stepId);
    if (status.state !== "running") return status;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("aggregation equivalence", () => {
  it.each(["token-mean", "seq-mean-token-mean"] as const)("gives the local backend's %s update through Tinker's sum within 1e-5", async (aggregation) => {
    const trainBatch = await batch(aggregation);

    const { backend: local } = await createLocalTrainingBackend();
    await local.open({ baseModel: "" });
    await finished(local, (await local.submit(trainBatch)).stepId);
    await local.checkpoint(path.join(directory, aggregation));
    await local.close();
    const localWeights = readLocalCheckpoint(path.join(directory, aggregation)).weights;

    const client = new TinkerHttpClient({ baseUrl: server.url, credentials: () => "tml-test" });
    const tinker = createTinkerBackend({ client, loadRenderer: async () => tinyChatRenderer, poll: { initialMs: 1, maxMs: 5 } });
    await tinker.open({ baseModel: "rllm/tiny" });
    const status = await finished(tinker, (await tinker.submit(trainBatch)).stepId);
    expect(status.state).toBe("done");
    expect(status.metrics.clipFraction).toBeGreaterThan(0);
    const modelId = [...server.stats.forwardBackwardOrder.keys()].at(-1)!;
    const tinkerWeights = server.modelWeights(modelId);
    await tinker.close();

    const start = (await readCheckpoint(SHIPPED_CHECKPOINT_DIRECTORY)).weights;
    let largestUpdate = 0;
    let largestDifference = 0;
    for (const [name, values] of localWeights) {
      const other = tinkerWeights.get(name)!;
      const initial = start.get(name)!;
      for (let index = 0; index < values.length; index++) {
        largestUpdate = Math.max(largestUpdate, Math.abs(values[index]! - initial[index]!));
        largestDifference = Math.max(largestDifference, Math.abs(values[index]! - other[index]!));
      }
    }
    expect(largestUpdate).toBeGreaterThan(1e-3);
    expect(largestDifference).toBeLessThan(1e-5);
  });

  it("gives the local backend's cross-entropy without an update through Tinker's forward-only request", async () => {
    const trainBatch = { ...(await batch("token-mean")), loss: LossConfigSchema.parse({ kind: "cross_entropy" }) };

    const { backend: local } = await createLocalTrainingBackend();
    await local.open({ baseModel: "" });
    const expected = await local.forward!(trainBatch);
    await local.close();

    const client = new TinkerHttpClient({ baseUrl: server.url, credentials: () => "tml-test" });
    const tinker = createTinkerBackend({ client, loadRenderer: async () => tinyChatRenderer, poll: { initialMs: 1, maxMs: 5 } });
    await tinker.open({ baseModel: "rllm/tiny" });
    const before = server.stats.forwardOnlyRequests;
    const result = await tinker.forward!(trainBatch);
    expect(server.stats.forwardOnlyRequests - before).toBe(1);
    await tinker.close();

    expect(result.tokens).toBe(expected.tokens);
    expect(expected.loss).toBeGreaterThan(0.01);
    expect(result.loss).toBeCloseTo(expected.loss, 5);
  });
});
