/**
 * V1-PairRL joint rewards: which solver pairs the same policy judges, and the sparse pairwise verifier reward
 * ½·Σ_{i∈{A,B}} 1(|v_i − y_i| ≤ 0.2)·(1 − |v_i − y_i|) with v = (rating − 1)/9 and y the true correctness.
 */

/** Ratings within this distance of the truth earn reward; beyond it nothing (stops the "always 0.5" collapse). */
export const RATING_TOLERANCE = 0.2;

/** The λ of J_gen + λ·J_verif in the paper. */
export const DEFAULT_VERIFIER_WEIGHT = 1;

/** A 1–10 rating mapped to [0, 1] (1 → 0, 10 → 1), clamped. */
export function normalizeRating(rating: number): number {
  return Math.min(1, Math.max(0, (rating - 1) / 9));
}

/** PointRL's reward for one rated solution: 1 − |v − y| when within the tolerance, else 0. */
export function pointVerifierReward(rating: number, isCorrect: boolean): number {
  const distance = Math.abs(normalizeRating(rating) - (isCorrect ? 1 : 0));
  // The small slack keeps ratings that sit exactly on the 0.2 boundary ((r−1)/9 rounding) inside it.
  return distance <= RATING_TOLERANCE + 1e-9 ? 1 - distance : 0;
}

/** Ratings the judge gave the two slots; null when its reply could not be parsed. */
export interface PairRatings {
  ratingA: number;
  ratingB: number;
}

/** The pairwise verifier reward in [0, 1]; an unparsable verdict (null) earns 0, like a badly formatted answer. */
export function pairVerifierReward(ratings: PairRatings | null, isCorrectA: boolean, isCorrectB: boolean): number {
  if (ratings === null) return 0;
  return 0.5 * (pointVerifierReward(ratings.ratingA, isCorrectA) + pointVerifierReward(ratings.ratingB, isCorrectB));
}

/** Whether the judge ranked a correct/incorrect pair the right way round (strictly higher rating for the correct one). */
export function isPairJudgedCorrectly(ratings: PairRatings | null, isCorrectA: boolean, isCorrectB: boolean): boolean {
  if (ratings === null || isCorrectA === isCorrectB) return false;
  return isCorrectA ? ratings.ratingA > ratings.ratingB : ratings.ratingB > ratings.ratingA;
}

/** Two solver rollouts (by index) in the slots the judge sees them in. */
export interface VerifierPair {
  indexA: number;
  indexB: number;
}

/**
 * Which pairs the judge trains on. `any-correct` is the paper's rule (correct–incorrect or correct–correct);
 * `mixed` keeps only correct–incorrect pairs, so the judge's training prior (half its candidates correct) matches
 * the pairs a reranker must separate instead of leaning towards "correct" as the solver improves.
 */
export type VerifierPairing = "any-correct" | "mixed";

/**
 * Up to `maxPairs` distinct pairs of the task's solutions for the judge, drawn with `random`. Never two incorrect
 * solutions: incorrect–incorrect pairs taught the generator to emit empty solutions in the paper.
 * Slot order is random so the judge cannot profit from a position bias.
 */
export function verifierPairs(
  correctness: readonly boolean[],
  maxPairs: number,
  random: () => number,
  pairing: VerifierPairing = "any-correct",
): VerifierPair[] {
  const isEligible = (first: boolean, second: boolean) => (pairing === "mixed" ? first !== second : first || second);
  const eligible: VerifierPair[] = [];
  for (let first = 0; first < correctness.length; first++) {
    for (let second = first + 1; second < correctness.length; second++) {
      if (isEligible(correctness[first]!, correctness[second]!)) eligible.push({ indexA: first, indexB: second });
    }
  }
  // Partial Fisher–Yates: the first maxPairs entries become a uniform sample without replacement.
  const count = Math.min(maxPairs, eligible.length);
  for (let index = 0; index < count; index++) {
    const pick = index + Math.floor(random() * (eligible.length - index));
    [eligible[index], eligible[pick]] = [eligible[pick]!, eligible[index]!];
  }
  return eligible.slice(0, count).map((pair) =>
    random() < 0.5 ? pair : { indexA: pair.indexB, indexB: pair.indexA },
  );
}
