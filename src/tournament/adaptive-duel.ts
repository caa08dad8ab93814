/**
 * `adaptive-duel`: best-of-N selection as a dueling bandit. Equal final answers are one arm; a Bradley–Terry posterior
 * over the arms (with a slot-A bias term) picks each next pair by top-two Thompson sampling, and the tournament stops
 * as soon as one arm is the best with the asked-for posterior probability, or the call budget is spent.
 *
 * Sources: answer clusters as in majority vote and VecCISC (arXiv 2605.08070: group traces by final answer, judge
 * representatives); Bayesian Bradley–Terry with Thompson sampling to allocate comparisons as in Duel-Evolve
 * (openreview 38t39AFZPE; Double Thompson Sampling, Wu & Liu 2016) and top-two Thompson sampling for best-arm
 * identification (Russo 2016, with its posterior-probability stopping rule); V1's margin weight
 * w = max(|r_A − r_B|/9, τ) on every verdict and V1's coverage round as the warm start (arXiv 2603.04304, §4).
 */
import { z } from "zod";
import type { Rng } from "../core/random.js";
import { randomInt, shuffled } from "../core/random.js";
import { groupByAnswer } from "./answer-groups.js";
import type { ArmComparison, BradleyTerryPosterior } from "./bradley-terry-posterior.js";
import { chanceToBeat, fitBradleyTerryPosterior, samplePosterior } from "./bradley-terry-posterior.js";
import type { JudgeRequest, JudgeVerdict, SlotPolicy } from "./selection-process.js";
import { callsPerPair, judgePairs, pickBest } from "./selection-process.js";
import type { ComparisonRecord, Selection } from "./tournament-record.js";
import { marginWeight, pairKey, slotAOutcome } from "./win-rate-stats.js";

export const AdaptiveDuelOptionsSchema = z
  .object({
    /** Treat candidates with equal normalised answers as one arm (never judged against each other). */
    clusters: z.boolean().default(true),
    /** Stop once the leading arm is the best with at least this posterior probability. */
    confidence: z.number().min(0.5).max(1).default(0.95),
    /**
     * Prior mean of an arm's log-strength per unit of ln(answer count): with no judge calls the pick is majority vote
     * (any weight > 0), and the weight says how much a vote counts against a verdict. 1 (prior odds = vote ratio) cost
     * 12 points in the simulator at N 8 and 4 at N 16 (p 0.7, 1.5×N: 0.615 vs 0.733, 0.819 vs 0.870): wrong answers
     * that share a value outvote the right one too often. 0.25 keeps majority vote as the tie-break.
     */
    supportWeight: z.number().nonnegative().default(0.25),
  })
  .strict();
export type AdaptiveDuelOptions = z.infer<typeof AdaptiveDuelOptionsSchema>;

// σ of the prior on θ: a judge right 70% of the time on a mixed pair is a log-odds gap of 0.85, well inside ±2σ.
const strengthSpread = 1;
// σ of the prior on the slot-A bias β: V1's judges were never measured above ~0.1 of accuracy (log-odds ~0.4).
const biasSpread = 0.5;
// Thompson draws tried per round for a challenger before falling back to the arm likeliest to beat the leader.
const challengerDraws = 50;

type Process = Generator<JudgeRequest[], Selection, JudgeVerdict[]>;

/** Runs the duel on `count` candidates under a budget of `budget` judge calls. */
export function* adaptiveDuel(
  count: number,
  budget: number,
  options: AdaptiveDuelOptions,
  tau: number,
  slots: SlotPolicy,
  rng: Rng,
  answers?: ReadonlyArray<string | undefined>,
): Process {
  const arms = groupByAnswer(count, options.clusters ? answers : undefined);
  const armOf = new Array<number>(count);
  arms.forEach((members, arm) => {
    for (const member of members) armOf[member] = arm;
  });
  const prior = {
    means: arms.map((members) => options.supportWeight * Math.log(members.length)),
    spread: strengthSpread,
    biasSpread,
  };
  const cost = callsPerPair(slots);
  const comparisons: ComparisonRecord[] = [];
  const armComparisons: ArmComparison[] = [];
  const memberCalls = new Array<number>(count).fill(0);
  // How often the lower-numbered arm of each arm pair sat in slot A: slots alternate, so the bias term is identified.
  const lowerInSlotA = new Map<string, number>();
  let rounds = 0;
  let posterior = fitBradleyTerryPosterior(armComparisons, prior);

  const play = function* (armPairs: ReadonlyArray<readonly [number, number]>) {
    const scheduled = armPairs.map(([first, second]) => schedulePair(first, second));
    const records = yield* judgePairs(scheduled, slots, rng, rounds);
    rounds += 1;
    for (const record of records) {
      comparisons.push(record);
      memberCalls[record.slotA]! += 1;
      memberCalls[record.slotB]! += 1;
      armComparisons.push({ armA: armOf[record.slotA]!, armB: armOf[record.slotB]!, outcome: slotAOutcome(record), weight: marginWeight(record, tau) });
    }
    posterior = fitBradleyTerryPosterior(armComparisons, prior, posterior);
  };

  // The member of an arm judged least so far (ties drawn): an answer's evidence comes from all its holders.
  const representative = (arm: number) => {
    const members = arms[arm]!;
    const fewest = Math.min(...members.map((member) => memberCalls[member]!));
    const least = members.filter((member) => memberCalls[member] === fewest);
    return least[randomInt(rng, least.length)]!;
  };
  const schedulePair = (first: number, second: number): [number, number] => {
    const key = pairKey(first, second);
    const lower = Math.min(first, second);
    const times = lowerInSlotA.get(key) ?? 0;
    const judged = armComparisons.filter((comparison) => pairKey(comparison.armA, comparison.armB) === key).length;
    // Whichever order has been used less goes next; the very first order is a coin flip.
    const lowerFirst = times * 2 === judged ? rng() < 0.5 : times * 2 < judged;
    lowerInSlotA.set(key, times + (lowerFirst ? 1 : 0));
    const [slotA, slotB] = lowerFirst ? [lower, Math.max(first, second)] : [Math.max(first, second), lower];
    return [representative(slotA), representative(slotB)];
  };

  const pairsLeft = () => Math.floor((budget - comparisons.length) / cost);

  // Warm start: one V1 coverage round (a random matching of the arms), so every arm has been seen once.
  if (arms.length > 2 && pairsLeft() > 0) {
    const order = shuffled(arms.map((_, arm) => arm), rng);
    const matching: Array<[number, number]> = [];
    for (let index = 0; index + 1 < order.length; index += 2) matching.push([order[index]!, order[index + 1]!]);
    yield* play(matching.slice(0, pairsLeft()));
  }
  while (arms.length > 1 && pairsLeft() > 0) {
    const leader = argmax(posterior.means);
    const threats = chanceToBeat(posterior, leader);
    // Stop when P(leader is best) ≥ confidence, bounded below by 1 − Σ P(arm beats leader) (a union bound).
    if (1 - threats.reduce((sum, chance) => sum + chance, 0) >= options.confidence) break;
    yield* play([[leader, challenger(posterior, leader, threats, rng)]]);
  }

  // The pick: the arm with the highest posterior mean, then its member with the best margin-weighted record.
  const armScores = posterior.means;
  const { chosenIndex: chosenArm, tieBreak } = pickBest(armScores, rng);
  const members = arms[chosenArm]!;
  const memberRecord = members.map((member) => memberWinRate(comparisons, member, tau));
  const chosenIndex = members[pickBest(memberRecord, rng).chosenIndex]!;
  const scores = armOf.map((arm) => armScores[arm]!);
  return { chosenIndex, tieBreak, scores, judgeCalls: comparisons.length, rounds, comparisons, points: [] };
}

/**
 * The challenger of the posterior-mean leader: the best arm of the first Thompson draw that disagrees with the leader
 * (top-two Thompson sampling, Russo 2016; the greedy leader is Double Thompson Sampling's first pick made greedily),
 * else the arm likeliest to beat it. In the simulator the greedy leader beat a sampled one by 10 points at N 16,
 * 1.5×N, distinct answers (0.780 vs 0.677, 400 problems each).
 */
function challenger(posterior: BradleyTerryPosterior, leader: number, threats: readonly number[], rng: Rng): number {
  for (let draw = 0; draw < challengerDraws; draw += 1) {
    const best = argmax(samplePosterior(posterior, rng));
    if (best !== leader) return best;
  }
  return argmax(threats);
}

function argmax(values: readonly number[]): number {
  let best = 0;
  values.forEach((value, index) => {
    if (value > values[best]!) best = index;
  });
  return best;
}

/** A candidate's own margin-weighted win rate over its calls (0.5 before any). */
function memberWinRate(comparisons: readonly ComparisonRecord[], member: number, tau: number): number {
  let wins = 0;
  let weights = 0;
  for (const record of comparisons) {
    if (record.slotA !== member && record.slotB !== member) continue;
    const weight = marginWeight(record, tau);
    const outcome = slotAOutcome(record);
    wins += weight * (record.slotA === member ? outcome : 1 - outcome);
    weights += weight;
  }
  return weights > 0 ? wins / weights : 0.5;
}
