/**
 * One validation of the training loop: the policy version after `step` updates on the held-out split (pass@1, the
 * judge, rerank@1), as a metrics record that reports its gains over the step-0 validation, paired by task and by pair.
 */
import { accuracyStats } from "../../metrics/accuracy.js";
import { createRng } from "../../core/random.js";
import type { Cookbook } from "../../core/cookbook.js";
import type { RunResources } from "../../core/run-resources.js";
import type { Task } from "../../core/task.js";
import type { Gateway } from "../../gateway/gateway-server.js";
import type { TrainConfig } from "../train-config.js";
import { pairedGain } from "./paired-gain.js";
import type { ValidationRecord } from "./train-records.js";
import { byTaskIndex, shareRightByPair, validatePolicy, type ValidationResult } from "./validate-policy.js";

export interface ValidationContext {
  config: TrainConfig;
  cookbook: Cookbook;
  testTasks: readonly Task[];
  gateway: Gateway;
  /** The model name of the version being validated. */
  model: string;
  signal: AbortSignal;
  /** The run's sandbox and pools, lent to every flow and evaluator. */
  resources: RunResources;
  /** The step-0 record (absent at step 0): later validations report their gains over it and re-judge its pairs. */
  baseline: ValidationRecord | undefined;
  /** Each validation episode, then each judge verdict, as it lands. */
  onProgress?: (unit: "episodes" | "verdicts", done: number, total: number) => void;
}

/** Validates the policy after `step` updates. */
export async function runValidation(step: number, context: ValidationContext): Promise<ValidationRecord> {
  const { config, baseline } = context;
  const started = performance.now();
  const validation = config.validation;
  const result = await validatePolicy(context.testTasks.slice(0, validation.tasks), {
    cookbook: context.cookbook,
    gateway: context.gateway,
    model: context.model,
    sampling: { temperature: config.sampling.temperature, topP: config.sampling.topP, maxTokens: config.sampling.maxTokens },
    // The same seed at every validation: differences between validations come from the weights, not the draws.
    seed: config.seed * 7919 + 999_983,
    attempts: validation.attempts,
    judgePairs: validation.judgePairs,
    judgeSamples: validation.judgeSamples,
    rerankN: validation.rerankN,
    rerankBudget: validation.rerankBudget,
    concurrency: config.concurrency,
    timeoutMs: config.timeoutSeconds * 1000,
    random: createRng(config.seed + 17),
    signal: context.signal,
    resources: context.resources,
    sessionPrefix: `validation-${step}`,
    onEpisodeDone: (done, total) => context.onProgress?.("episodes", done, total),
    onVerdictDone: (done, total) => context.onProgress?.("verdicts", done, total),
    ...(step > 0 && baseline?.startJudgePairs ? { startPairs: baseline.startJudgePairs.pairs } : {}),
  });
  return {
    kind: "validation",
    step,
    passAt1: result.passAt1,
    passAt1ByTask: result.passAt1ByTask,
    passAt1Gain: step > 0 && baseline ? pairedGain(baseline.passAt1ByTask, result.passAt1ByTask) : null,
    judgeAccuracy: result.judgeAccuracy ?? null,
    judgeOnStartPairs: judgeOnStartPairs(step, result, baseline),
    ...(step === 0 && result.judgePairs ? { startJudgePairs: result.judgePairs } : {}),
    rerankAt1: result.rerankAt1 ?? null,
    seconds: (performance.now() - started) / 1000,
  };
}

// The judge's accuracy on the step-0 pairs now, and its change since step 0 paired by pair (each pair's share of
// right verdicts over its samples).
function judgeOnStartPairs(step: number, result: ValidationResult, baseline: ValidationRecord | undefined): ValidationRecord["judgeOnStartPairs"] {
  if (step === 0) return result.judgePairs ? { accuracy: result.judgeAccuracy!, gain: null } : null;
  const start = baseline?.startJudgePairs;
  if (!start || !result.startPairVerdicts) return null;
  // Records written before judgeSamples existed hold one verdict per pair.
  const samples = start.samplesPerPair ?? 1;
  const taskCount = Math.max(0, ...start.pairs.map((pair) => pair.taskIndex + 1));
  return {
    accuracy: accuracyStats(byTaskIndex(start.pairs, result.startPairVerdicts, taskCount, samples)),
    gain: pairedGain(shareRightByPair(start.verdicts, samples), shareRightByPair(result.startPairVerdicts, samples)),
  };
}
