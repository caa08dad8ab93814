/**
 * The most judge calls a tournament can use on `count` candidates: every pair judged once in each slot order,
 * count·(count − 1). V1's Swiss phase read as §4's prose ends when no unseen pair is left (count·(count − 1)/2 pairs,
 * swiss-pairs.ts `forbid`), and `--slots both` judges each of them in both orders; adaptive-duel alternates a pair's
 * order, so by then each pair has been asked both ways. Past that a method only asks again a question it has asked.
 */
export function usefulJudgeCalls(count: number): number {
  return count * (count - 1);
}
