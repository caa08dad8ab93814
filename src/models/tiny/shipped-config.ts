/** The shape and training recipe of the checkpoint that ships with the package (about 100 min of training on 2 busy cores). */
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
 * Six supervised phases, each continuing from the last: both skills from scratch (1), an earlier judge format (2),
 * then the served judge format, `residues` (last-digit checks), with slipped solve examples (3), two judge-heavy
 * phases of the same (4, 5), and a short one whose judge examples slip too (6), so that the judge, like the solver,
 * samples worse than its greedy verdict and RL has that noise to remove. Phases 1–2 are kept as they ran so the
 * checkpoint can be reproduced.
 */
export const SHIPPED_TRAINING: SupervisedOptions[] = [
  { steps: 1800, batchSize: 32, learningRate: 3e-3, warmupSteps: 50, judgeFraction: 0.35, judgeFormat: "chains", weightSeed: 7, dataSeed: 11 },
  { steps: 1000, batchSize: 32, learningRate: 2e-3, warmupSteps: 30, judgeFraction: 0.6, judgeFormat: "answers", weightSeed: 7, dataSeed: 12 },
  { steps: 1600, batchSize: 32, learningRate: 1.5e-3, warmupSteps: 30, judgeFraction: 0.6, judgeFormat: "residues", solveSlipRate: 0.15, weightSeed: 7, dataSeed: 13 },
  { steps: 900, batchSize: 32, learningRate: 1e-3, warmupSteps: 20, judgeFraction: 0.8, judgeFormat: "residues", solveSlipRate: 0.15, weightSeed: 7, dataSeed: 14 },
  { steps: 1200, batchSize: 32, learningRate: 1e-3, warmupSteps: 20, judgeFraction: 0.8, judgeFormat: "residues", solveSlipRate: 0.15, weightSeed: 7, dataSeed: 15 },
  { steps: 400, batchSize: 32, learningRate: 5e-4, warmupSteps: 20, judgeFraction: 0.8, judgeFormat: "residues", solveSlipRate: 0.15, judgeSlipRate: 0.3, weightSeed: 7, dataSeed: 16 },
];
