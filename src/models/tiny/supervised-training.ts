/** Supervised training from scratch on both skills, deterministic given the seeds: warmup then cosine learning rate. */
import { z } from "zod";
import type { TinyModelConfig } from "./model-config.js";
import { initialWeights } from "./model-weights.js";
import { createRng } from "../../core/random.js";
import { supervisedLoss, TrainableModel } from "./trainable-model.js";
import type { ModelWeights } from "./model-weights.js";
import { trainingBatch } from "./training-data.js";

export const SupervisedOptionsSchema = z
  .object({
    steps: z.number().int().positive(),
    batchSize: z.number().int().positive(),
    learningRate: z.number().positive(),
    warmupSteps: z.number().int().nonnegative(),
    /** Share of batches made of judge examples (each batch holds one skill, so its sequences have similar lengths). */
    judgeFraction: z.number().min(0).max(1),
    judgeFormat: z.enum(["residues", "answers", "chains"]),
    /** Share of solve examples with one slipped step (see `solveExample`); absent means none. */
    solveSlipRate: z.number().min(0).max(1).optional(),
    /** Share of `residues` judge examples whose check has one slipped step (see `judgeExample`); absent means none. */
    judgeSlipRate: z.number().min(0).max(1).optional(),
    weightSeed: z.number().int(),
    dataSeed: z.number().int(),
  })
  .strict();
export type SupervisedOptions = z.infer<typeof SupervisedOptionsSchema>;

/** Progress after a step. */
export interface SupervisedProgress {
  step: number;
  loss: number;
  learningRate: number;
  seconds: number;
}

/** Learning rate at `step` (1-based): linear warmup, then cosine decay to a tenth. */
export function learningRateAt(step: number, options: SupervisedOptions): number {
  if (step <= options.warmupSteps) return (options.learningRate * step) / Math.max(1, options.warmupSteps);
  const progress = (step - options.warmupSteps) / Math.max(1, options.steps - options.warmupSteps);
  return options.learningRate * (0.1 + 0.45 * (1 + Math.cos(Math.PI * Math.min(1, progress))));
}

/**
 * Trains from `startWeights` (a fresh seeded initialisation when absent) with fresh Adam moments; `onStep` sees every
 * step (for logs and periodic checkpoints).
 */
export async function trainSupervised(
  config: TinyModelConfig,
  options: SupervisedOptions,
  onStep: (progress: SupervisedProgress, model: TrainableModel) => Promise<void> | void,
  startWeights?: ModelWeights,
): Promise<TrainableModel> {
  const model = await TrainableModel.fromWeights(config, startWeights ?? initialWeights(config, options.weightSeed));
  const random = createRng(options.dataSeed);
  const started = performance.now();
  for (let step = 1; step <= options.steps; step++) {
    const judgeFraction = random() < options.judgeFraction ? 1 : 0;
    const examples = trainingBatch(random, options.batchSize, { judgeFraction, judgeFormat: options.judgeFormat, solveSlipRate: options.solveSlipRate, judgeSlipRate: options.judgeSlipRate });
    const learningRate = learningRateAt(step, options);
    const result = model.step(
      examples.map((example) => example.tokens),
      examples.map((example) => example.lossMask),
      supervisedLoss,
      { learningRate, weightDecay: 0.01, clipNorm: 1 },
    );
    await onStep({ step, loss: result.loss, learningRate, seconds: (performance.now() - started) / 1000 }, model);
  }
  return model;
}
