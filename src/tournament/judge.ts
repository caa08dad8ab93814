/** The Judge contract: rate two solutions side by side (pairwise) or one alone (pointwise), and the request adapter. */
import type { Step } from "../core/step.js";
import type { JudgeRequest, JudgeVerdict } from "./selection-process.js";
import type { Winner } from "./tournament-record.js";

/** A pairwise verdict: ratings 1..10 (null when unreadable), the winner or a tie, the raw text and the call's Step. */
export interface PairJudgement {
  ratingA: number | null;
  ratingB: number | null;
  winner: Winner;
  parseError: boolean;
  text: string;
  step?: Step;
}

/** A pointwise verdict on a single solution. */
export interface PointJudgement {
  rating: number | null;
  parseError: boolean;
  text: string;
  step?: Step;
}

export interface Judge {
  compare(problem: string, solutionA: string, solutionB: string): Promise<PairJudgement>;
  score(problem: string, solution: string): Promise<PointJudgement>;
}

/**
 * Turns a Judge into the request handler a selection process needs, over fixed candidates; every call's Step is
 * passed to `onStep` with the candidate indices and the verdict in `info`, and the call's sequence number (the
 * order of the requests, which the order the calls finish in need not follow).
 */
export function judgeRequests(
  judge: Judge,
  problem: string,
  candidates: readonly string[],
  onStep?: (step: Step, sequence: number) => void,
): (request: JudgeRequest) => Promise<JudgeVerdict> {
  let issued = 0;
  return async (request) => {
    const sequence = issued++;
    if (request.type === "pair") {
      const judgement = await judge.compare(problem, candidates[request.slotA]!, candidates[request.slotB]!);
      const verdict: JudgeVerdict = {
        type: "pair",
        ratingA: judgement.ratingA,
        ratingB: judgement.ratingB,
        winner: judgement.winner,
        parseError: judgement.parseError,
      };
      if (judgement.step && onStep) onStep({ ...judgement.step, info: { ...judgement.step.info, ...request, ...verdict } }, sequence);
      return verdict;
    }
    const judgement = await judge.score(problem, candidates[request.candidate]!);
    const verdict: JudgeVerdict = { type: "point", rating: judgement.rating, parseError: judgement.parseError };
    if (judgement.step && onStep) onStep({ ...judgement.step, info: { ...judgement.step.info, ...request, ...verdict } }, sequence);
    return verdict;
  };
}
