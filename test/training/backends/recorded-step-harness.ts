/**
 * Runs one recorded RL step case through the local backend's public contract and summarises what it produced: the
 * step's metrics and, per parameter, the weight change at a few spread-out entries plus its sum and absolute sum.
 */
import { initialWeights, type ModelWeights } from "../../../src/models/tiny/model-weights.js";
import type { TinyModelConfig } from "../../../src/models/tiny/model-config.js";
import { VOCABULARY } from "../../../src/models/tiny/tokenizer.js";
import { LossConfigSchema, OptimizerConfigSchema, type LossAggregation } from "../../../src/training/backend.js";
import { createLocalBackend } from "../../../src/training/backends/local-backend.js";

/** One recorded case: the batch's options and the rows it trains on (sampler logprobs recorded with the rows). */
export interface RecordedStepCase {
  name: string;
  /** Multiplies the seeded initial weights, so that entropies and ratios vary enough to clip and select. */
  weightScale: number;
  microBatchPositions: number;
  substeps: number;
  loss: Record<string, unknown>;
  lossAggregation: LossAggregation;
  optimizer: Record<string, unknown>;
  rows: { tokens: number[]; lossMask: number[]; samplerLogprobs: number[]; advantage: number }[];
}

/** What one case produced. */
export interface RecordedStepResult {
  metrics: Record<string, number>;
  /** Per parameter: the update at up to 8 evenly spaced entries, its sum and its absolute sum. */
  updates: Record<string, { samples: number[]; sum: number; absoluteSum: number }>;
}

/** The small model every case trains. */
export const RECORDED_STEP_CONFIG: TinyModelConfig = { vocabSize: VOCABULARY.length, contextLength: 16, width: 16, layers: 1, heads: 2, mlpRatio: 2 };

/** The starting weights of a case. */
export function recordedStepWeights(weightScale: number): ModelWeights {
  const weights = initialWeights(RECORDED_STEP_CONFIG, 13);
  for (const values of weights.values()) for (let index = 0; index < values.length; index++) values[index]! *= weightScale;
  return weights;
}

/** Opens a fresh local backend on the case's weights, submits its batch, publishes, and summarises the result. */
export async function runRecordedStep(recorded: RecordedStepCase): Promise<RecordedStepResult> {
  const start = recordedStepWeights(recorded.weightScale);
  let latest: ModelWeights | undefined;
  const backend = createLocalBackend({
    config: RECORDED_STEP_CONFIG,
    weights: recordedStepWeights(recorded.weightScale),
    microBatchPositions: recorded.microBatchPositions,
    startSampler: async () => ({ baseUrl: "http://127.0.0.1:1/v1", model: "tiny-test", update: async (next) => {
      latest = next;
    }, close: async () => {} }),
  });
  await backend.open({ baseModel: "tiny-test" });
  const { stepId } = await backend.submit({
    sequences: recorded.rows,
    loss: LossConfigSchema.parse(recorded.loss),
    lossAggregation: recorded.lossAggregation,
    merge: "prefix",
    optimizer: OptimizerConfigSchema.parse(recorded.optimizer),
    substeps: recorded.substeps,
  });
  const { metrics } = await backend.status(stepId);
  await backend.publish();
  await backend.close();
  const updates: RecordedStepResult["updates"] = {};
  for (const [name, values] of latest!) {
    const before = start.get(name)!;
    const update = Array.from(values, (value, index) => value - before[index]!);
    const stride = Math.max(1, Math.floor(update.length / 8));
    updates[name] = {
      samples: update.filter((_, index) => index % stride === 0).slice(0, 8),
      sum: update.reduce((sum, value) => sum + value, 0),
      absoluteSum: update.reduce((sum, value) => sum + Math.abs(value), 0),
    };
  }
  // A metric the step does not report may be present as undefined; JSON leaves it out, and so does the summary.
  const reported = Object.fromEntries(Object.entries(metrics).filter(([, value]) => value !== undefined));
  return { metrics: reported, updates };
}
