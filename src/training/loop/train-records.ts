/** The lines of `<out>/metrics.jsonl`: one `train` record per policy update and one `validation` record per evaluation. */
import { z } from "zod";
import { MetricsLineHeadSchema } from "../../runs/training-run-files.js";
import type { AdvantageStatistics } from "../advantages/index.js";
import type { TransformMetrics } from "../transforms/index.js";
import type { AccuracyStats } from "../../metrics/accuracy.js";
import type { PairedGain } from "./paired-gain.js";
import type { JudgePairSample } from "./validate-policy.js";

export interface TrainStepRecord {
  kind: "train";
  step: number;
  /** Policy version that sampled this step's rollouts. */
  policyVersion: number;
  /** Mean solver reward and accuracy over this step's rollouts. */
  reward: number;
  accuracy: number;
  /** Joint training only: share of mixed pairs the judge ranked right, mean verifier reward, unreadable verdicts. */
  judgeAccuracy: number | null;
  judgeReward: number | null;
  judgeParseErrors: number | null;
  advantage: AdvantageStatistics;
  advantageByRole: Record<string, AdvantageStatistics>;
  /** Kept and dropped trajectories and groups, by reason. */
  transform: TransformMetrics;
  tokens: number;
  trainedTokens: number;
  /** What the backend reported: loss, clip fraction, gradient norm, learner-vs-sampler logprob mismatch... */
  update: Record<string, number> | null;
  /**
   * How many versions the batch's groups lag the trainer (policyVersion) by: mean, largest and count per value; the
   * oldest version that sampled any of them; groups dropped as too stale and kept past maxStaleness to be reweighted.
   */
  staleness: { mean: number; max: number; histogram: Record<string, number>; oldestVersion: number; droppedGroups: number; reweightedGroups: number };
  /**
   * The groups trained, in batch order: the slot (step) their task was drawn for and its place in that draw, the
   * versions that sampled them, and the order they finished in. With droppedGroups, the record a replay follows.
   */
  groups: { slot: number; task: number; taskId: string; versions: [number, number]; finishedOrder: number }[];
  droppedGroups: { slot: number; task: number; staleness: number }[];
  /** Seconds from the previous update's end until this batch was ready (the rollouts it waited for). */
  rolloutSeconds: number;
  /** Wall seconds from the start of this invocation of rllm train to this record (reward against wall time). */
  elapsedSeconds?: number;
  trainSeconds: number;
  stepSeconds: number;
}

export interface ValidationRecord {
  kind: "validation";
  /** Policy updates done before this validation (0 = the starting model). */
  step: number;
  passAt1: AccuracyStats;
  /** Each test task's pass rate, in task order. */
  passAt1ByTask: number[];
  /** Change since the validation before training (step 0), paired by task; null at step 0. */
  passAt1Gain: PairedGain | null;
  judgeAccuracy: AccuracyStats | null;
  /**
   * The judge on the mixed pairs the step-0 validation drew, judged again with the current weights: unlike
   * `judgeAccuracy`, whose pairs change as the solver does, this isolates the judge's own change.
   */
  judgeOnStartPairs: { accuracy: AccuracyStats; gain: PairedGain | null } | null;
  /**
   * Step 0 only: the pairs `judgeOnStartPairs` re-judges, with their step-0 verdicts, `samplesPerPair` per pair
   * (absent in older records: 1). Kept for --resume.
   */
  startJudgePairs?: { pairs: JudgePairSample[]; verdicts: boolean[]; samplesPerPair?: number };
  rerankAt1: AccuracyStats | null;
  seconds: number;
  /** Wall seconds from the start of this invocation of rllm train to this record. */
  elapsedSeconds?: number;
}

export type TrainRecord = TrainStepRecord | ValidationRecord;

const TrainRecordHeadSchema = MetricsLineHeadSchema.extend({ kind: z.enum(["train", "validation"]) });

/**
 * A metrics.jsonl line as --resume reads it: its head (kind, step) is checked, and the rest is this loop's own record,
 * trusted as written (the viewer's charts read the fields they plot and tolerate the rest).
 */
export const TrainRecordLineSchema = z.custom<TrainRecord>((value) => TrainRecordHeadSchema.safeParse(value).success, {
  message: 'expected a metrics record: "kind" train or validation and a whole "step" of at least 0',
});

