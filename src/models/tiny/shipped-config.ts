/** The shape and training recipe of the checkpoint that ships with the package (sized to train in ~47 min on 2 busy cores). */
import type { TinyModelConfig } from "./model-config.js";
import type { SupervisedOptions } from "./supervised-training.js";
import { VOCABULARY } from "./tokenizer.js";

export const SHIPPED_MODEL_CONFIG: TinyModelConfig = {
  vocabSize: VOCABULARY.length,
  contextLength: 104,
  width: 64,
  layers: 3,
  heads: 4,
  mlpRatio: 4,
};

/**
 * Two supervised phases: both skills from scratch, then a shorter phase from those weights that teaches the judge
 * format the chat template serves (re-derive the answer, then rate each final answer against it).
 */
export const SHIPPED_TRAINING: SupervisedOptions[] = [
  { steps: 1800, batchSize: 32, learningRate: 3e-3, warmupSteps: 50, judgeFraction: 0.35, judgeFormat: "chains", weightSeed: 7, dataSeed: 11 },
  { steps: 1000, batchSize: 32, learningRate: 2e-3, warmupSteps: 30, judgeFraction: 0.6, judgeFormat: "answers", weightSeed: 7, dataSeed: 12 },
];
