/** The `rllm train --config train.json` schema: strict (an unknown key is an error), with defaults sized for the tiny model. */
import { z } from "zod";
import { AdvantageConfigSchema } from "./assign-advantages.js";
import { LossAggregationSchema, LossConfigSchema, OptimizerConfigSchema } from "./backend.js";

export const TrainConfigSchema = z
  .object({
    /** Benchmark the tasks come from (default: the cookbook's name). */
    benchmark: z.string().optional(),
    /** Split of the benchmark the training tasks are drawn from. */
    trainSplit: z.string().default("train"),
    /** Policy updates to run. */
    steps: z.number().int().positive().default(30),
    /** Tasks drawn from the train split per step. */
    tasksPerStep: z.number().int().positive().default(16),
    /** Solver rollouts per task (the GRPO group size). */
    groupSize: z.number().int().min(2).default(8),
    sampling: z
      .object({
        // Temperature 1: the sampler's logprobs then are the policy's, so the importance ratio starts at 1.
        temperature: z.number().min(0).max(2).default(1),
        topP: z.number().gt(0).max(1).default(1),
        maxTokens: z.number().int().positive().default(64),
      })
      .strict()
      .default({ temperature: 1, topP: 1, maxTokens: 64 }),
    loss: LossConfigSchema.default({ kind: "ppo", clipLow: 0.2, clipHigh: 0.28, klCoef: 0, minEntropy: 0 }),
    lossAggregation: LossAggregationSchema.default("token-mean"),
    // The default when `optimizer` is left out. A given object replaces it whole: the fields it omits take
    // OptimizerConfigSchema's defaults (the same Adam values), and gradient clipping is off unless gradClipNorm is set.
    optimizer: OptimizerConfigSchema.default({ learningRate: 3e-4, beta1: 0.9, beta2: 0.999, epsilon: 1e-8, weightDecay: 0, gradClipNorm: 1 }),
    /** Optimizer steps per batch (later ones are off-policy; the ppo clip bounds them). */
    substeps: z.number().int().positive().default(1),
    advantages: AdvantageConfigSchema.default({ estimator: "grpo", byRole: {}, roleWeights: {}, convention: "verl" }),
    transform: z
      .object({
        merge: z.enum(["prefix", "per_call"]).default("prefix"),
        minGroupSize: z.number().int().positive().default(2),
        dropUniformGroups: z.boolean().default(true),
        /** Train nothing on a trajectory whose last call hit sampling.maxTokens (it stays in its group's advantages). */
        maskTruncated: z.boolean().default(false),
      })
      .strict()
      .default({ merge: "prefix", minGroupSize: 2, dropUniformGroups: true, maskTruncated: false }),
    /** V1-PairRL: the same policy also judges pairs of its own solutions, trained with the sparse pairwise reward. */
    joint: z
      .object({
        enabled: z.boolean().default(false),
        /** Judge calls per task (pairs drawn from sets with at least one correct solution). */
        pairsPerTask: z.number().int().positive().default(4),
        /** "any-correct" (the paper: correct–incorrect or correct–correct) or "mixed" (correct–incorrect only). */
        pairing: z.enum(["any-correct", "mixed"]).default("any-correct"),
        /**
         * Judge calls per pair. Above 1, pair it with pairsPerTask 1 and judgeEstimator "grpo": the task's judge group
         * is then k verdicts on one prompt, so each is credited against the others rather than a batch mean.
         */
        samplesPerPair: z.number().int().positive().default(1),
        /** λ in J_gen + λ·J_verif. */
        weight: z.number().nonnegative().default(1),
        /** Pairs are distinct prompts, so the paper's baseline is the batch mean (REINFORCE). */
        judgeEstimator: AdvantageConfigSchema.shape.estimator.default("reinforce"),
      })
      .strict()
      .default({ enabled: false, pairsPerTask: 4, pairing: "any-correct", samplesPerPair: 1, weight: 1, judgeEstimator: "reinforce" }),
    validation: z
      .object({
        /** Validate every k steps (and before the first and after the last). */
        every: z.number().int().positive().default(10),
        split: z.string().default("test"),
        /** Test tasks used (the first n). */
        tasks: z.number().int().positive().default(200),
        /** Samples per test task for pass@1 (averaged; the stderr is clustered by task). */
        attempts: z.number().int().positive().default(1),
        /** Also measure the judge's pairwise accuracy on pairs of test solutions. */
        judgePairs: z.number().int().nonnegative().default(0),
        /** Judge calls per validation pair (seeds seed … seed + k − 1); the accuracy averages them, so it is less noisy. */
        judgeSamples: z.number().int().positive().default(1),
        /** Also rerank `rerankN` samples per test task with the V1 tournament (0 = off). */
        rerankN: z.number().int().nonnegative().default(0),
        rerankBudget: z.number().positive().default(1),
      })
      .strict()
      .default({ every: 10, split: "test", tasks: 200, attempts: 1, judgePairs: 0, judgeSamples: 1, rerankN: 0, rerankBudget: 1 }),
    /** Save a checkpoint every k steps (and at the end). */
    checkpointEvery: z.number().int().positive().default(10),
    seed: z.number().int().nonnegative().default(0),
    /** Episodes in flight at once. */
    concurrency: z.number().int().positive().default(16),
    /** Per-episode time limit in seconds. */
    timeoutSeconds: z.number().positive().default(120),
    /**
     * The share of a step's rollouts that may end as infrastructure errors before training stops. They get no reward
     * and are dropped, and infrastructure failures are not random (a slow sandbox fails the long programs), so past a
     * few percent the batch no longer stands for the policy. 0.05: one rollout in 20.
     */
    maxInfraErrorRate: z.number().min(0).max(1).default(0.05),
    /**
     * Asynchronous, off-policy training (`rllm train --async`): rollouts go on while an update runs. 0 versions of
     * staleness is the synchronous loop (sample, update, sample…).
     */
    async: z
      .object({
        /**
         * Policy versions a rollout group may lag the trainer by: slot s of tasks starts once version s − 1 − K exists,
         * and a finished group older than K versions at update time is dropped (or reweighted).
         */
        maxStaleness: z.number().int().nonnegative().default(0),
        /** An episode in flight across an update takes the new weights for its later calls (each call keeps its own version). */
        partialRollouts: z.boolean().default(false),
        /** A group past maxStaleness: "drop" it, or "reweight" it by truncated importance ratios (needs loss.tisCap). */
        staleGroups: z.enum(["drop", "reweight"]).default("drop"),
      })
      .strict()
      .default({ maxStaleness: 0, partialRollouts: false, staleGroups: "drop" }),
    out: z.string().optional(),
  })
  .strict()
  .superRefine((config, context) => {
    if (config.async.staleGroups === "reweight" && config.loss.tisCap === undefined) {
      context.addIssue({ code: "custom", path: ["async", "staleGroups"], message: '"reweight" weighs stale groups by truncated importance ratios: set loss.tisCap (--tis-cap)' });
    }
    // The synchronous loop has no stale groups: "reweight" there would be a setting silently ignored.
    if (config.async.staleGroups === "reweight" && config.async.maxStaleness === 0) {
      context.addIssue({ code: "custom", path: ["async", "staleGroups"], message: '"reweight" acts on groups past maxStaleness, which only the async loop has: set async.maxStaleness (--max-staleness) above 0' });
    }
    if (config.async.partialRollouts && config.async.maxStaleness === 0) {
      context.addIssue({ code: "custom", path: ["async", "partialRollouts"], message: "partial rollouts cross an update, which only the async loop has: set async.maxStaleness (--max-staleness) above 0" });
    }
  });
export type TrainConfig = z.infer<typeof TrainConfigSchema>;

/**
 * A run's config.json (or the config a resume compares it with) with today's train-config defaults filled in, so
 * that a run saved before a key existed (async, transform.maskTruncated) compares as if it had held the default; the
 * keys that are not the train config's, and a config that does not parse, are left as they are for the comparison to
 * name.
 */
export function withTrainConfigDefaults(config: Record<string, unknown>): Record<string, unknown> {
  const trainKeys = new Set(Object.keys(TrainConfigSchema.shape));
  const parsed = TrainConfigSchema.safeParse(Object.fromEntries(Object.entries(config).filter(([key, value]) => trainKeys.has(key) && value !== undefined)));
  return parsed.success ? { ...config, ...parsed.data } : config;
}
