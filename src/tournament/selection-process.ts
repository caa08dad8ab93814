/** The protocol between a selection method and a judge: methods are generators that yield rounds of judge requests. */
import type { Rng } from "../core/random.js";
import { randomInt } from "../core/random.js";
import type { ComparisonRecord, PointRecord, Selection, Winner } from "./tournament-record.js";

/** A pairwise request (candidate indices in slot order) or a pointwise one. */
export type JudgeRequest =
  | { type: "pair"; slotA: number; slotB: number }
  | { type: "point"; candidate: number };

/** The verdict for one request, in the same order as the requests of the round. */
export type JudgeVerdict =
  | { type: "pair"; ratingA: number | null; ratingB: number | null; winner: Winner; parseError: boolean }
  | { type: "point"; rating: number | null; parseError: boolean };

/** A selection method in progress: each `yield` is one round judged in parallel; the return value is the pick. */
export type SelectionProcess = Generator<JudgeRequest[], Selection, JudgeVerdict[]>;

/**
 * Which candidate sits in slot A: `scheduled` keeps the method's order (V1: the under-covered or higher-μ one),
 * `random` flips a coin per call, `both` judges both orders (two calls per pair).
 */
export type SlotPolicy = "scheduled" | "random" | "both";

/** Judge calls one scheduled pair costs under a slot policy. */
export function callsPerPair(slots: SlotPolicy): number {
  return slots === "both" ? 2 : 1;
}

/** Judges a round of scheduled pairs `[first, second]` under the slot policy; returns one record per judge call. */
export function* judgePairs(
  pairs: ReadonlyArray<readonly [number, number]>,
  slots: SlotPolicy,
  rng: Rng,
  round: number,
): Generator<JudgeRequest[], ComparisonRecord[], JudgeVerdict[]> {
  const requests: JudgeRequest[] = [];
  for (const [first, second] of pairs) {
    if (slots === "both") {
      requests.push({ type: "pair", slotA: first, slotB: second }, { type: "pair", slotA: second, slotB: first });
    } else if (slots === "random" && rng() < 0.5) {
      requests.push({ type: "pair", slotA: second, slotB: first });
    } else {
      requests.push({ type: "pair", slotA: first, slotB: second });
    }
  }
  if (requests.length === 0) return [];
  const verdicts = yield requests;
  return requests.map((request, index) => {
    const verdict = verdicts[index];
    if (request.type !== "pair" || verdict?.type !== "pair") {
      throw new Error(`judge returned no pair verdict for request ${index} of round ${round}`);
    }
    return { round, slotA: request.slotA, slotB: request.slotB, ...verdict };
  });
}

/** Judges a round of pointwise requests; returns one record per call. */
export function* judgePoints(
  candidates: readonly number[],
  round: number,
): Generator<JudgeRequest[], PointRecord[], JudgeVerdict[]> {
  if (candidates.length === 0) return [];
  const verdicts = yield candidates.map((candidate) => ({ type: "point" as const, candidate }));
  return candidates.map((candidate, index) => {
    const verdict = verdicts[index];
    if (verdict?.type !== "point") throw new Error(`judge returned no point verdict for request ${index} of round ${round}`);
    return { round, candidate, rating: verdict.rating, parseError: verdict.parseError };
  });
}

/** Drives a selection with a synchronous judge (the simulator). */
export function runSelectionSync(process: SelectionProcess, judge: (request: JudgeRequest) => JudgeVerdict): Selection {
  let step = process.next([]);
  while (!step.done) step = process.next(step.value.map(judge));
  return step.value;
}

/** Drives a selection with an asynchronous judge; the requests of a round run in parallel. */
export async function runSelection(
  process: SelectionProcess,
  judge: (request: JudgeRequest) => Promise<JudgeVerdict>,
): Promise<Selection> {
  let step = process.next([]);
  while (!step.done) step = process.next(await Promise.all(step.value.map(judge)));
  return step.value;
}

// Scores are sums of weights and means of ratings: equal ones may differ in the last bits.
const scoreTolerance = 1e-9;

/**
 * The pick: the candidate with the highest score. When several share it, one of them is drawn with `rng`, never the
 * lowest index: a position rule makes the result depend on the order the candidates came in. `tieBreak` says so.
 */
export function pickBest(scores: readonly number[], rng: Rng): { chosenIndex: number; tieBreak: boolean } {
  const top = Math.max(...scores);
  const tied = scores.flatMap((score, index) => (top - score <= scoreTolerance ? [index] : []));
  if (tied.length <= 1) return { chosenIndex: tied[0] ?? 0, tieBreak: false };
  return { chosenIndex: tied[randomInt(rng, tied.length)]!, tieBreak: true };
}
