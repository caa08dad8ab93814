/** The simulator's world (reference §6.1–6.2): candidates with latent correctness and quality, and judge models. */
import { z } from "zod";
import type { JudgeRequest, JudgeVerdict } from "./selection-process.js";
import type { Rng } from "../core/random.js";
import { createRng, normal, randomInt, shuffled } from "../core/random.js";
import { pairKey } from "./win-rate-stats.js";

export const SimulatedWorldSchema = z
  .object({
    n: z.number().int().min(1).default(16),
    /** Each candidate is correct with this probability (ignored when correctCount is set). */
    correctProb: z.number().min(0).max(1).default(0.3),
    /** Exactly this many of the n candidates are correct, at random positions. */
    correctCount: z.number().int().nonnegative().optional(),
    /** Chance that the judge prefers the correct one of a correct/incorrect pair (ties count half). */
    judgeAccuracy: z.number().min(0).max(1).default(0.7),
    /** b: the correct one in slot A wins with p + b, in slot B with p − b. */
    positionBias: z.number().min(0).max(0.5).default(0),
    /** Share of the judge's noise that is fixed per pair, so re-judging a pair repeats its mistakes. */
    persistence: z.number().min(0).max(1).default(0),
    /** binary: exact p on every mixed pair, ratings 10/1 (the theory checks). ratings: V1-style 1–10 dual ratings. */
    judgeModel: z.enum(["binary", "ratings"]).default("ratings"),
    /** ratings model: chance that a call saturates (both 10, a tie). */
    saturation: z.number().min(0).max(1).default(0.05),
    /**
     * σ_q: spread of latent quality around 1 (correct) and 0 (incorrect); makes plausible wrong answers that a judge
     * misranks every time. 0.35 keeps p = 0.9 reachable (the best possible judge is right with Φ(1/(σ_q·√2)) ≈ 0.98).
     */
    qualitySpread: z.number().nonnegative().default(0.35),
    /** Pointwise judge: its slope relative to the pairwise one (< 1: no contrast to lean on). */
    pointwiseContrast: z.number().nonnegative().default(0.7),
    /**
     * Pointwise judge: self-bias g added to every rating. 3 puts most correct candidates at 10/10, as V1 reports
     * ("calibration collapse": 12 of 16 candidates rated 10/10 on one LCB-v6 problem); 0 gives an uninflated judge.
     */
    pointwiseInflation: z.number().default(3),
    /** Distinct wrong answers the incorrect candidates draw from (for majority vote). */
    wrongAnswers: z.number().int().positive().default(3),
    /**
     * clustered: correct candidates share one final answer and wrong ones draw from `wrongAnswers` (math). distinct:
     * every candidate's answer differs (code, free text), so majority vote is a random pick and there is nothing to group.
     */
    answers: z.enum(["clustered", "distinct"]).default("clustered"),
  })
  .strict();
export type SimulatedWorld = z.infer<typeof SimulatedWorldSchema>;

/** One simulated problem: which candidates are correct, their latent quality and their extracted answers. */
export interface SimulatedInstance {
  correct: boolean[];
  quality: number[];
  answers: string[];
}

/** The ratings model's fitted constants: slope a, slot-A bonus, rating noise σ_r. */
export interface RatingsCalibration {
  slope: number;
  slotBonus: number;
  noise: number;
}

const ratingNoise = 1.5;

/** Draws one problem's candidates. */
export function drawInstance(world: SimulatedWorld, rng: Rng): SimulatedInstance {
  const correct =
    world.correctCount === undefined
      ? Array.from({ length: world.n }, () => rng() < world.correctProb)
      : shuffled(Array.from({ length: world.n }, (_, index) => index < world.correctCount!), rng);
  const quality = correct.map((isCorrect) => (isCorrect ? 1 : 0) + world.qualitySpread * normal(rng));
  const answers =
    world.answers === "distinct"
      ? correct.map((_, index) => `answer-${index}`)
      : correct.map((isCorrect) => (isCorrect ? "correct" : `wrong-${randomInt(rng, world.wrongAnswers)}`));
  return { correct, quality, answers };
}

function clipRating(value: number): number {
  return Math.min(10, Math.max(1, Math.round(value)));
}

function sigmoid(value: number): number {
  return 1 / (1 + Math.exp(-value));
}

/** Mixed-pair win chance of the correct candidate in slot A and in slot B under the ratings model (ties half). */
function ratingsAccuracy(world: SimulatedWorld, slope: number, slotBonus: number, samples: number): [number, number] {
  const rng = createRng(20260304);
  let inSlotA = 0;
  let inSlotB = 0;
  for (let sample = 0; sample < samples; sample += 1) {
    const good = 1 + world.qualitySpread * normal(rng);
    const bad = world.qualitySpread * normal(rng);
    const saturated = rng() < world.saturation;
    const noiseGood = ratingNoise * normal(rng);
    const noiseBad = ratingNoise * normal(rng);
    const score = (first: number, second: number) => (saturated ? 0.5 : first > second ? 1 : first === second ? 0.5 : 0);
    const good1 = clipRating(5.5 + slope * (good - 0.5) + noiseGood);
    const bad1 = clipRating(5.5 + slope * (bad - 0.5) + noiseBad);
    inSlotA += score(clipRating(5.5 + slope * (good - 0.5) + slotBonus + noiseGood), bad1);
    inSlotB += score(good1, clipRating(5.5 + slope * (bad - 0.5) + slotBonus + noiseBad));
  }
  return [inSlotA / samples, inSlotB / samples];
}

function bisect(evaluate: (value: number) => number, target: number, low: number, high: number): number {
  for (let iteration = 0; iteration < 24; iteration += 1) {
    const middle = (low + high) / 2;
    if (evaluate(middle) < target) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

const calibrations = new Map<string, RatingsCalibration>();

/** Fits the ratings model's slope to the judge accuracy and its slot-A bonus to the position bias (fixed seed, memoised). */
export function calibrateRatings(world: SimulatedWorld, samples = 20_000): RatingsCalibration {
  const key = JSON.stringify([world.judgeAccuracy, world.positionBias, world.saturation, world.qualitySpread, samples]);
  if (!calibrations.has(key)) calibrations.set(key, fitRatings(world, samples));
  return calibrations.get(key)!;
}

function fitRatings(world: SimulatedWorld, samples: number): RatingsCalibration {
  const averageAccuracy = (slope: number, slotBonus: number) => {
    const [inSlotA, inSlotB] = ratingsAccuracy(world, slope, slotBonus, samples);
    return (inSlotA + inSlotB) / 2;
  };
  const slotGap = (slope: number, slotBonus: number) => {
    const [inSlotA, inSlotB] = ratingsAccuracy(world, slope, slotBonus, samples);
    return (inSlotA - inSlotB) / 2;
  };
  let slope = bisect((value) => averageAccuracy(value, 0), world.judgeAccuracy, 0, 40);
  let slotBonus = 0;
  // The bonus pushes ratings into the 1..10 clip, which moves the average a little: alternate the two fits.
  for (let pass = 0; pass < 3 && world.positionBias > 0; pass += 1) {
    slotBonus = bisect((value) => slotGap(slope, value), world.positionBias, 0, 10);
    slope = bisect((value) => averageAccuracy(value, slotBonus), world.judgeAccuracy, 0, 40);
  }
  return { slope, slotBonus, noise: ratingNoise };
}

/** A judge over one instance; keeps the per-pair persistent noise so repeats of a pair are correlated. */
export function createSimulatedJudge(
  world: SimulatedWorld,
  instance: SimulatedInstance,
  calibration: RatingsCalibration,
  rng: Rng,
): (request: JudgeRequest) => JudgeVerdict {
  const persistentNoise = new Map<string, number>();
  const firstVerdicts = new Map<string, number>();
  const pairNoise = (key: string, candidate: number) => {
    const slot = `${key}/${candidate}`;
    if (!persistentNoise.has(slot)) persistentNoise.set(slot, normal(rng));
    return persistentNoise.get(slot)!;
  };
  const noiseFor = (key: string, candidate: number) =>
    world.persistence === 0
      ? calibration.noise * normal(rng)
      : calibration.noise * (Math.sqrt(world.persistence) * pairNoise(key, candidate) + Math.sqrt(1 - world.persistence) * normal(rng));

  return (request) => {
    if (request.type === "point") return pointVerdict(world, instance, calibration, request.candidate, rng);
    const { slotA, slotB } = request;
    const key = pairKey(slotA, slotB);
    if (world.judgeModel === "binary") {
      // With probability `persistence` a repeated pair returns the winner it got the first time.
      const remembered = firstVerdicts.get(key);
      const winner =
        remembered !== undefined && rng() < world.persistence ? remembered : binaryWinner(world, instance, slotA, slotB, rng);
      if (remembered === undefined) firstVerdicts.set(key, winner);
      return winner === slotA
        ? { type: "pair", ratingA: 10, ratingB: 1, winner: "A", parseError: false }
        : { type: "pair", ratingA: 1, ratingB: 10, winner: "B", parseError: false };
    }
    if (rng() < world.saturation) return { type: "pair", ratingA: 10, ratingB: 10, winner: "tie", parseError: false };
    const rate = (candidate: number, bonus: number) =>
      clipRating(5.5 + calibration.slope * (instance.quality[candidate]! - 0.5) + bonus + noiseFor(key, candidate));
    const ratingA = rate(slotA, calibration.slotBonus);
    const ratingB = rate(slotB, 0);
    return { type: "pair", ratingA, ratingB, winner: ratingA > ratingB ? "A" : ratingA < ratingB ? "B" : "tie", parseError: false };
  };
}

/** Binary model: a mixed pair goes to the correct one with p ± b by slot; a same-class pair by quality, ± b. */
function binaryWinner(world: SimulatedWorld, instance: SimulatedInstance, slotA: number, slotB: number, rng: Rng): number {
  const correctA = instance.correct[slotA]!;
  const correctB = instance.correct[slotB]!;
  let slotAWins: number;
  if (correctA !== correctB) slotAWins = correctA ? world.judgeAccuracy + world.positionBias : 1 - world.judgeAccuracy + world.positionBias;
  else slotAWins = sigmoid((instance.quality[slotA]! - instance.quality[slotB]!) / 0.3) + world.positionBias;
  return rng() < slotAWins ? slotA : slotB;
}

/**
 * Pointwise judge (reference J3). Ratings model: a flatter slope plus a self-bias that saturates at 10.
 * Binary model: rates 10 ("correct") with probability p for a correct candidate and 1 − p for a wrong one.
 */
function pointVerdict(
  world: SimulatedWorld,
  instance: SimulatedInstance,
  calibration: RatingsCalibration,
  candidate: number,
  rng: Rng,
): JudgeVerdict {
  if (world.judgeModel === "binary") {
    const saysCorrect = rng() < (instance.correct[candidate] ? world.judgeAccuracy : 1 - world.judgeAccuracy);
    return { type: "point", rating: saysCorrect ? 10 : 1, parseError: false };
  }
  const slope = calibration.slope * world.pointwiseContrast;
  const rating = clipRating(5.5 + slope * (instance.quality[candidate]! - 0.5) + world.pointwiseInflation + calibration.noise * normal(rng));
  return { type: "point", rating, parseError: false };
}
