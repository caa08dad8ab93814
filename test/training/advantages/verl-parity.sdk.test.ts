// The project's advantage estimators and loss aggregation against verl 0.9.1's own core_algos on seeded random
// batches (groups of one and all-equal groups included): verl computes in the pinned ml environment
// (integrations/verl/checks/core_algos_reference.py) and every value must agree to 1e-6.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as tf from "@tensorflow/tfjs";
import { describe, expect, it } from "vitest";
import { createRng, randomIntBetween, type Rng } from "../../../src/core/random.js";
import { estimateAdvantages, type AdvantageEstimator } from "../../../src/training/advantages/index.js";
import { LossConfigSchema, type LossAggregation } from "../../../src/training/backend.js";
import { policyLoss } from "../../../src/training/backends/policy-loss.js";
import { pythonEnv } from "../../helpers/python-env.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const ESTIMATORS = ["grpo", "dr_grpo", "rloo", "reinforce_plus_plus", "reinforce_plus_plus_baseline"] as const satisfies readonly AdvantageEstimator[];
// verl's agg_loss mode → the project's name for it.
const AGGREGATIONS: Record<string, LossAggregation> = {
  "token-mean": "token-mean",
  "token-sum": "sum",
  "seq-mean-token-sum": "seq-mean-token-sum",
  "seq-mean-token-sum-norm": "seq-mean-token-sum-norm",
  "seq-mean-token-mean": "seq-mean-token-mean",
};
const WIDTH = 8;

interface AdvantageCase {
  name: string;
  rewards: number[];
  groups: string[];
  masks: number[][];
}

// A response mask: trained tokens with observation gaps (multi-turn), ending on a trained token as an episode ends on
// the model's last turn, right-padded with zeros to WIDTH.
function randomMask(rng: Rng): number[] {
  const length = randomIntBetween(rng, 1, WIDTH);
  return Array.from({ length: WIDTH }, (_, index) => (index === length - 1 ? 1 : index < length && rng() < 0.7 ? 1 : 0));
}

function advantageCase(name: string, rng: Rng, groupSizes: readonly number[], reward: (group: number) => number): AdvantageCase {
  const rows = groupSizes.flatMap((size, group) => Array.from({ length: size }, () => group));
  return { name, rewards: rows.map(reward), groups: rows.map((group) => `task-${group}`), masks: rows.map(() => randomMask(rng)) };
}

const rng = createRng(36);
const advantageCases: AdvantageCase[] = [
  advantageCase("binary rewards, groups of 1 to 5", rng, [4, 1, 5, 2, 3, 1], () => (rng() < 0.5 ? 1 : 0)),
  advantageCase("graded rewards, groups of 8", rng, [8, 8, 8], () => rng()),
  advantageCase("an all-equal group beside a mixed one", rng, [4, 4], (group) => (group === 0 ? 1 : rng())),
  advantageCase("every group of one", rng, [1, 1, 1, 1], () => rng() * 2 - 1),
  advantageCase("one all-equal group", rng, [6], () => 0.5),
];
const aggregationCases = Array.from({ length: 4 }, (_, caseIndex) => {
  const rows = caseIndex + 2;
  const masks = Array.from({ length: rows }, (_, row) => (caseIndex === 3 && row === 0 ? Array(WIDTH).fill(0) : randomMask(rng)));
  return { losses: masks.map(() => Array.from({ length: WIDTH }, () => rng() * 4 - 2)), masks };
});

interface VerlReference {
  advantages: Record<(typeof ESTIMATORS)[number], number[]>[];
  aggregations: Record<string, number>[];
}

function verlReference(): VerlReference {
  const run = spawnSync(pythonEnv("ml"), ["integrations/verl/checks/core_algos_reference.py"], {
    cwd: root,
    input: JSON.stringify({ advantageCases, aggregationCases }),
    encoding: "utf8",
    timeout: 240_000,
  });
  if (run.status !== 0) throw new Error(`core_algos_reference.py exited ${run.status}:\n${run.stderr}`);
  return JSON.parse(run.stdout) as VerlReference;
}

// The project's advantage for each row of a case: rows grouped by uid in order of appearance, each weighing its
// trained tokens (REINFORCE++ under the verl convention); a row with no trained token trains nothing (0).
function projectAdvantages(estimator: AdvantageEstimator, testCase: AdvantageCase): number[] {
  const keys = [...new Set(testCase.groups)];
  const members = keys.map((key) => testCase.groups.flatMap((group, row) => (group === key ? [row] : [])));
  const tokenCounts = members.map((rows) => rows.map((row) => testCase.masks[row]!.reduce((sum, value) => sum + value, 0)));
  const advantages = estimateAdvantages(estimator, members.map((rows) => rows.map((row) => testCase.rewards[row]!)), "verl", tokenCounts);
  const perRow: number[] = new Array(testCase.rewards.length).fill(0);
  for (const [group, rows] of members.entries()) {
    for (const [position, row] of rows.entries()) perRow[row] = tokenCounts[group]![position]! > 0 ? advantages[group]![position]! : 0;
  }
  return perRow;
}

// The project's aggregation of a per-token loss matrix: cross_entropy's per-token loss is −p, so p = −loss.
function projectAggregation(losses: number[][], masks: number[][], aggregation: LossAggregation): number {
  return tf.tidy(() => {
    const inputs = {
      learnerLogprobs: tf.tensor2d(losses).neg() as tf.Tensor2D,
      samplerLogprobs: tf.zeros([losses.length, WIDTH]) as tf.Tensor2D,
      mask: tf.tensor2d(masks),
      advantages: tf.zeros([losses.length, 1]) as tf.Tensor2D,
    };
    return policyLoss(inputs, LossConfigSchema.parse({ kind: "cross_entropy" }), aggregation).loss.dataSync()[0]!;
  });
}

function maxAbsoluteDifference(actual: readonly number[], expected: readonly number[]): number {
  expect(actual).toHaveLength(expected.length);
  return Math.max(...actual.map((value, index) => Math.abs(value - expected[index]!)));
}

describe("parity with verl's core_algos", () => {
  const reference = verlReference();

  describe.each(ESTIMATORS)("%s", (estimator) => {
    it.each(advantageCases.map((testCase, index) => [testCase.name, index] as const))("agrees on %s", (_, index) => {
      const expected = reference.advantages[index]![estimator];
      expect(maxAbsoluteDifference(projectAdvantages(estimator, advantageCases[index]!), expected)).toBeLessThan(1e-6);
    });
  });

  it.each(Object.entries(AGGREGATIONS))("aggregates like agg_loss %s", (verlMode, aggregation) => {
    for (const [index, testCase] of aggregationCases.entries()) {
      const expected = reference.aggregations[index]![verlMode]!;
      const actual = projectAggregation(testCase.losses, testCase.masks, aggregation);
      // tfjs computes in float32: 1e-6 relative to the loss's size (token-sum adds up to ~50 terms).
      expect(Math.abs(actual - expected)).toBeLessThan(1e-6 * Math.max(1, Math.abs(expected)));
    }
  });
});
