/** Baseline selection methods on the same judge protocol: pointwise, random pairing, knockout, league, majority vote. */
import type { JudgeRequest, JudgeVerdict, SlotPolicy } from "./selection-process.js";
import { callsPerPair, judgePairs, judgePoints, pickBest } from "./selection-process.js";
import type { Rng } from "../core/random.js";
import { randomInt, shuffled } from "../core/random.js";
import type { ComparisonRecord, PointRecord, Selection } from "./tournament-record.js";
import { createWinRateStats, recordComparisons, slotAOutcome, winRates } from "./win-rate-stats.js";
import { range } from "./v1-infer.js";

type Process = Generator<JudgeRequest[], Selection, JudgeVerdict[]>;

/**
 * Pointwise argmax: each candidate is rated floor(budget / N) times (at least once) and its mean rating is its score;
 * a candidate whose every rating failed to parse scores 0, below any real rating. Ties are drawn with `rng`.
 */
export function* pointwise(count: number, budget: number, rng: Rng): Process {
  const repeats = Math.max(1, Math.floor(budget / count));
  const points: PointRecord[] = [];
  for (let round = 0; round < repeats; round += 1) points.push(...(yield* judgePoints(range(count), round)));
  const scores = range(count).map((candidate) => {
    const ratings = points.filter((point) => point.candidate === candidate && point.rating !== null);
    return ratings.length === 0 ? 0 : ratings.reduce((sum, point) => sum + point.rating!, 0) / ratings.length;
  });
  return { ...pickBest(scores, rng), scores, judgeCalls: points.length, rounds: repeats, comparisons: [], points };
}

/** V1's "random pairing" ablation: rounds of random disjoint pairs until the budget, same weighted win rate μ. */
export function* randomPairing(count: number, budget: number, tau: number, slots: SlotPolicy, rng: Rng): Process {
  const stats = createWinRateStats(count);
  const comparisons: ComparisonRecord[] = [];
  const cost = callsPerPair(slots);
  let rounds = 0;
  while (count > 1 && comparisons.length + cost <= budget) {
    const order = shuffled(range(count), rng);
    const pairs: Array<[number, number]> = [];
    for (let index = 0; index + 1 < order.length; index += 2) pairs.push([order[index]!, order[index + 1]!]);
    const records = yield* judgePairs(pairs.slice(0, Math.floor((budget - comparisons.length) / cost)), slots, rng, rounds);
    recordComparisons(stats, records, tau);
    comparisons.push(...records);
    rounds += 1;
  }
  const scores = winRates(stats);
  return { ...pickBest(scores, rng), scores, judgeCalls: comparisons.length, rounds, comparisons, points: [] };
}

/**
 * Knockout (Chen et al. 2411.19477): a random bracket, K comparisons per match, the majority of outcomes wins and
 * an even split is a coin flip; an odd survivor gets a bye. Costs K(N − 1) calls (twice that with both slot orders).
 * Scores are the round each candidate reached.
 */
export function* knockout(count: number, repeats: number, slots: SlotPolicy, rng: Rng): Process {
  let alive = shuffled(range(count), rng);
  const reached = new Array<number>(count).fill(0);
  const comparisons: ComparisonRecord[] = [];
  let rounds = 0;
  while (alive.length > 1) {
    const matches: Array<[number, number]> = [];
    for (let index = 0; index + 1 < alive.length; index += 2) matches.push([alive[index]!, alive[index + 1]!]);
    const scheduled = matches.flatMap((match) => Array.from({ length: repeats }, () => match));
    const records = yield* judgePairs(scheduled, slots, rng, rounds);
    comparisons.push(...records);
    const survivors = matches.map(([first, second]) => {
      let margin = 0;
      for (const record of records) {
        if (record.slotA === first && record.slotB === second) margin += slotAOutcome(record) - 0.5;
        if (record.slotA === second && record.slotB === first) margin -= slotAOutcome(record) - 0.5;
      }
      return margin > 0 || (margin === 0 && rng() < 0.5) ? first : second;
    });
    if (alive.length % 2 === 1) survivors.push(alive[alive.length - 1]!);
    rounds += 1;
    for (const survivor of survivors) reached[survivor] = rounds;
    alive = shuffled(survivors, rng);
  }
  // Even splits were coin flips inside the matches; the champion itself is never a tie.
  return { chosenIndex: alive[0] ?? 0, tieBreak: false, scores: reached, judgeCalls: comparisons.length, rounds, comparisons, points: [] };
}

/**
 * League (Chen et al. Thm 3.3): each candidate meets K = floor(budget / N) opponents drawn uniformly with
 * replacement; its score is its plain win rate over its own K matches (win 1, tie 0.5). All calls run in one round.
 */
export function* league(count: number, budget: number, slots: SlotPolicy, rng: Rng): Process {
  const repeats = Math.max(1, Math.floor(budget / (count * callsPerPair(slots))));
  const scheduled: Array<[number, number]> = [];
  if (count > 1) {
    for (const candidate of range(count)) {
      for (let match = 0; match < repeats; match += 1) {
        const draw = randomInt(rng, count - 1);
        scheduled.push([candidate, draw >= candidate ? draw + 1 : draw]);
      }
    }
  }
  const records = yield* judgePairs(scheduled, slots, rng, 0);
  // Records keep the scheduled owner: with both orders one scheduled match yields two consecutive records.
  const perMatch = callsPerPair(slots);
  const totals = new Array<number>(count).fill(0);
  const played = new Array<number>(count).fill(0);
  records.forEach((record, index) => {
    const owner = scheduled[Math.floor(index / perMatch)]![0];
    totals[owner]! += record.slotA === owner ? slotAOutcome(record) : 1 - slotAOutcome(record);
    played[owner]! += 1;
  });
  const scores = totals.map((total, candidate) => (played[candidate]! > 0 ? total / played[candidate]! : 0.5));
  return { ...pickBest(scores, rng), scores, judgeCalls: records.length, rounds: count > 1 ? 1 : 0, comparisons: records, points: [] };
}

/**
 * Majority vote over extracted answers (no judge calls): a holder of the most frequent answer; candidates without an
 * answer do not vote. Scores are each candidate's vote share. When several answers share the most votes, or nobody
 * voted, the pick is drawn with `rng` among the tied candidates (`tieBreak`).
 */
export function majorityVote(answers: ReadonlyArray<string | undefined>, rng: Rng): Selection {
  const votes = new Map<string, number>();
  for (const answer of answers) if (answer !== undefined) votes.set(answer, (votes.get(answer) ?? 0) + 1);
  const voters = answers.filter((answer) => answer !== undefined).length;
  const scores = answers.map((answer) => (answer === undefined ? 0 : votes.get(answer)! / voters));
  const { chosenIndex } = pickBest(scores, rng);
  // Holders of one answer share its score without being a tie: the pick is a tie only between different answers.
  const topVotes = Math.max(0, ...votes.values());
  const topAnswers = [...votes.values()].filter((count) => count === topVotes).length;
  const tieBreak = voters === 0 ? answers.length > 1 : topAnswers > 1;
  return { chosenIndex, tieBreak, scores, judgeCalls: 0, rounds: 0, comparisons: [], points: [] };
}
