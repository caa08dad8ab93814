/** V1-Infer (arXiv 2603.04304, §4 and App. D): coverage to d_min opponents, then Swiss refinement, under a call budget. */
import { z } from "zod";
import { coveragePairs, needsCoverage } from "./coverage-pairs.js";
import type { JudgeRequest, JudgeVerdict, SlotPolicy } from "./selection-process.js";
import { callsPerPair, judgePairs, pickBest } from "./selection-process.js";
import type { Rng } from "../core/random.js";
import { shuffled } from "../core/random.js";
import { swissPairs } from "./swiss-pairs.js";
import type { ComparisonRecord, Selection } from "./tournament-record.js";
import type { WinRateStats } from "./win-rate-stats.js";
import { createWinRateStats, recordComparisons, winRates } from "./win-rate-stats.js";

export const V1OptionsSchema = z
  .object({
    /** d_min: distinct opponents every candidate gets in the coverage phase. */
    minDegree: z.number().int().positive().default(2),
    /** h: how far down the μ ranking a Swiss pairing may look. */
    window: z.number().int().positive().default(8),
    /** τ: the floor of the margin weight, so ties and 1-point verdicts still count a little. */
    tau: z.number().min(0).max(1).default(0.1),
    /** Ambiguity 1: may the Swiss phase re-judge a pair (Alg. 4, default) or not (§4 prose)? */
    swissRepeats: z.enum(["allow", "forbid"]).default("allow"),
    /** Ambiguity 2: cut the last round to the remaining budget (default) or finish it and overshoot. */
    budgetOverflow: z.enum(["truncate", "overshoot"]).default("truncate"),
    /** Our variant: Swiss rounds over all candidates (published) or only the top half by μ. */
    swissPool: z.enum(["all", "top-half"]).default("all"),
    /**
     * Our variant (adaptive budget): end the Swiss phase early once the same leader has topped two rounds in a row
     * ahead of the runner-up by at least this μ gap. Absent in the published algorithm (it spends the whole budget).
     */
    settledGap: z.number().positive().max(1).optional(),
  })
  .strict();
export type V1Options = z.infer<typeof V1OptionsSchema>;
export type V1OptionsInput = z.input<typeof V1OptionsSchema>;

/** The state V1 leaves behind: its statistics and every judge call, for other aggregators of the same graph. */
export interface V1Run {
  stats: WinRateStats;
  comparisons: ComparisonRecord[];
  rounds: number;
  judgeCalls: number;
}

/** Runs V1's two phases and returns the comparison graph (the pick is left to the aggregator). */
export function* v1Rounds(
  count: number,
  budget: number,
  options: V1Options,
  slots: SlotPolicy,
  rng: Rng,
): Generator<JudgeRequest[], V1Run, JudgeVerdict[]> {
  const stats = createWinRateStats(count);
  const comparisons: ComparisonRecord[] = [];
  const cost = callsPerPair(slots);
  // With fewer than d_min + 1 candidates nobody can reach d_min distinct opponents.
  const minDegree = Math.min(options.minDegree, count - 1);
  const pool = options.swissPool === "all" ? count : Math.max(2, Math.ceil(count / 2));
  let used = 0;
  let rounds = 0;

  const playRound = function* (pairs: Array<[number, number]>, phase: "coverage" | "swiss") {
    const allowed = options.budgetOverflow === "truncate" ? Math.floor((budget - used) / cost) : pairs.length;
    const judged = yield* judgePairs(pairs.slice(0, allowed), slots, rng, rounds);
    const records = judged.map((record) => ({ ...record, phase }));
    recordComparisons(stats, records, options.tau);
    comparisons.push(...records);
    used += records.length;
    rounds += 1;
    return records.length;
  };

  while (used < budget && needsCoverage(stats, minDegree)) {
    const played = yield* playRound(coveragePairs(stats, minDegree, shuffled(range(count), rng)), "coverage");
    if (played === 0) break;
  }
  let leader = -1;
  let leaderRounds = 0;
  while (used < budget && count > 2) {
    const played = yield* playRound(swissPairs(stats, options.window, options.swissRepeats, pool), "swiss");
    if (played === 0) break;
    if (options.settledGap !== undefined) {
      const [first, second] = topTwo(winRates(stats));
      leaderRounds = first.candidate === leader ? leaderRounds + 1 : 1;
      leader = first.candidate;
      if (leaderRounds >= 2 && first.score - second.score >= options.settledGap) break;
    }
  }
  return { stats, comparisons, rounds, judgeCalls: used };
}

/** V1-Infer: the candidate with the highest margin-weighted win rate μ after the budgeted tournament. */
export function* v1Infer(
  count: number,
  budget: number,
  options: V1Options,
  slots: SlotPolicy,
  rng: Rng,
): Generator<JudgeRequest[], Selection, JudgeVerdict[]> {
  const run = yield* v1Rounds(count, budget, options, slots, rng);
  const scores = winRates(run.stats);
  return { ...pickBest(scores, rng), scores, judgeCalls: run.judgeCalls, rounds: run.rounds, comparisons: run.comparisons, points: [] };
}

/** The two highest scores with their candidates (lowest index first on ties). */
function topTwo(scores: readonly number[]): [{ candidate: number; score: number }, { candidate: number; score: number }] {
  const order = scores.map((score, candidate) => ({ candidate, score })).sort((first, second) => second.score - first.score || first.candidate - second.candidate);
  return [order[0]!, order[1]!];
}

/** 0, 1, …, count − 1. */
export function range(count: number): number[] {
  return Array.from({ length: count }, (_, index) => index);
}
