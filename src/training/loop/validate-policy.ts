/**
 * Validation on the held-out split: pass@1 of the current policy (clustered stderr), the judge's accuracy on mixed
 * pairs of its own test solutions, and optionally rerank@1 with the V1 tournament.
 */
import pLimit from "p-limit";
import type { Episode } from "../../core/episode.js";
import { messageText } from "../../core/message.js";
import type { Task } from "../../core/task.js";
import { createOpenAiClient } from "../../llm/openai-client.js";
import { accuracyStats, type AccuracyStats } from "../../metrics/accuracy.js";
import { cookbookJudgeKind } from "../../tournament/cookbook-judge-kind.js";
import { createLlmJudge } from "../../tournament/llm-judge.js";
import { episodeAnswer } from "../../core/episode-answer.js";
import { rerankTaskEpisodes } from "../../tournament/rerank-task-episodes.js";
import { shuffled, type Rng } from "../../core/random.js";
import { isPairJudgedCorrectly } from "../joint-reward.js";
import { rolloutEpisodes, type RolloutOptions } from "./rollout-episodes.js";

/** The rollout's options (the test tasks are rolled out like a training batch) plus the judge and rerank metrics'. */
export interface ValidationOptions extends Omit<RolloutOptions, "model"> {
  /** The model name every call asks for: one policy version throughout. */
  model: string;
  /** Samples per task; pass@1 averages them. */
  attempts: number;
  /** Mixed (one right, one wrong) pairs per task the judge is asked about; 0 = no judge metric. */
  judgePairs: number;
  /** Judge calls per pair (seeds seed, seed + 1, …): more samples, less noise in the judge's accuracy. Default 1. */
  judgeSamples?: number;
  /** Candidates per task reranked with V1 (0 = off; needs attempts ≥ rerankN). */
  rerankN: number;
  rerankBudget: number;
  random: Rng;
  /** Pairs drawn by the first validation, judged again so the judge's change is measured on the same pairs. */
  startPairs?: readonly JudgePairSample[];
  /** Called as each judge verdict lands (the judge's pairs after the episodes), with the count done and in all. */
  onVerdictDone?: (done: number, total: number) => void;
}

/** A mixed pair of one test task's solutions, as judged (slot A first). */
export interface JudgePairSample {
  taskIndex: number;
  candidateA: string;
  candidateB: string;
  isCorrectA: boolean;
  isCorrectB: boolean;
}

export interface ValidationResult {
  passAt1: AccuracyStats;
  /** Each test task's pass rate over its attempts, in task order (for the paired gain between validations). */
  passAt1ByTask: number[];
  /** Share of mixed pairs where the correct solution got the higher rating (clustered by task); absent when no task had one. */
  judgeAccuracy?: AccuracyStats;
  /**
   * The mixed pairs judged for `judgeAccuracy`, and the verdicts (judged the right way round or not): `samplesPerPair`
   * per pair, pair after pair.
   */
  judgePairs?: { pairs: JudgePairSample[]; verdicts: boolean[]; samplesPerPair: number };
  /** The verdicts on `startPairs`, laid out the same way, when given. */
  startPairVerdicts?: boolean[];
  rerankAt1?: AccuracyStats;
}

/** Samples the test tasks with the current policy and measures it. */
export async function validatePolicy(tasks: readonly Task[], options: ValidationOptions): Promise<ValidationResult> {
  const episodes = await rolloutEpisodes(tasks, { ...options, attempts: Math.max(options.attempts, options.rerankN) });
  const byTask = tasks.map((task) =>
    episodes.filter((episode) => episode.taskId === task.id && episode.errorClass !== "infra_error").sort((a, b) => a.attempt - b.attempt),
  );
  const correctByTask = byTask.map((attempts) => attempts.slice(0, options.attempts).map((episode) => episode.score.isCorrect));
  const result: ValidationResult = {
    passAt1: accuracyStats(correctByTask),
    passAt1ByTask: correctByTask.map((attempts) => (attempts.length === 0 ? 0 : attempts.filter(Boolean).length / attempts.length)),
  };
  const sessionId = `${options.sessionPrefix}/judge`;
  const client = createOpenAiClient({ baseUrl: options.gateway.sessionUrl(sessionId), model: options.model });
  if (options.judgePairs > 0) {
    // Seeded judge calls, so two validations differ by the weights, not by the draws: sample j of every pair uses seed + j.
    const samples = options.judgeSamples ?? 1;
    const judges = Array.from({ length: samples }, (_, sample) =>
      createLlmJudge({ client, kind: cookbookJudgeKind(options.cookbook), sampling: { ...options.sampling, seed: options.seed + sample }, concurrency: options.concurrency, signal: options.signal }),
    );
    const limit = pLimit(options.concurrency);
    let verdicts = 0;
    let pairCount = 0;
    const totalVerdicts = () => (pairCount + (options.startPairs?.length ?? 0)) * samples;
    const judgeAll = (pairs: readonly JudgePairSample[]) =>
      Promise.all(
        pairs.flatMap((pair) =>
          judges.map((judge) =>
            limit(async () => {
              const judgement = await judge.compare(messageText(tasks[pair.taskIndex]!.instruction), pair.candidateA, pair.candidateB);
              const ratings = judgement.parseError ? null : { ratingA: judgement.ratingA!, ratingB: judgement.ratingB! };
              verdicts += 1;
              options.onVerdictDone?.(verdicts, totalVerdicts());
              return isPairJudgedCorrectly(ratings, pair.isCorrectA, pair.isCorrectB);
            }),
          ),
        ),
      );
    const pairs = tasks.flatMap((_, index) =>
      mixedPairs(byTask[index]!, options.judgePairs, options.random).map(([first, second]) => ({
        taskIndex: index,
        candidateA: episodeAnswer(first),
        candidateB: episodeAnswer(second),
        isCorrectA: first.score.isCorrect,
        isCorrectB: second.score.isCorrect,
      })),
    );
    pairCount = pairs.length;
    const [pairVerdicts, startPairVerdicts] = await Promise.all([judgeAll(pairs), options.startPairs ? judgeAll(options.startPairs) : undefined]);
    if (pairs.length > 0) {
      result.judgeAccuracy = accuracyStats(byTaskIndex(pairs, pairVerdicts, tasks.length, samples));
      result.judgePairs = { pairs, verdicts: pairVerdicts, samplesPerPair: samples };
    }
    if (startPairVerdicts) result.startPairVerdicts = startPairVerdicts;
  }
  if (options.rerankN > 1) {
    const limit = pLimit(Math.max(1, Math.floor(options.concurrency / 4)));
    const outcomes = await Promise.all(
      tasks.map((task, index) =>
        limit(async () => {
          const candidates = byTask[index]!.slice(0, options.rerankN);
          if (candidates.length < 2) return [];
          const reranked = await rerankTaskEpisodes({
            problem: messageText(task.instruction),
            episodes: candidates,
            judgeKind: cookbookJudgeKind(options.cookbook),
            method: "v1",
            budget: options.rerankBudget,
            client,
            sampling: options.sampling,
            seed: options.seed + index,
            signal: options.signal,
          });
          return [reranked.isCorrect];
        }),
      ),
    );
    result.rerankAt1 = accuracyStats(outcomes);
  }
  options.gateway.deleteSession(sessionId);
  return result;
}

/** Verdicts (`samplesPerPair` per pair, pair after pair) grouped by task (the clusters of the stderr), in task order. */
export function byTaskIndex(
  pairs: readonly JudgePairSample[],
  verdicts: readonly boolean[],
  taskCount: number,
  samplesPerPair = 1,
): boolean[][] {
  const grouped: boolean[][] = Array.from({ length: taskCount }, () => []);
  for (const [index, pair] of pairs.entries()) grouped[pair.taskIndex]!.push(...verdicts.slice(index * samplesPerPair, (index + 1) * samplesPerPair));
  return grouped;
}

/** Each pair's share of right verdicts (`samplesPerPair` per pair, pair after pair). */
export function shareRightByPair(verdicts: readonly boolean[], samplesPerPair: number): number[] {
  const shares: number[] = [];
  for (let start = 0; start < verdicts.length; start += samplesPerPair) {
    const pairVerdicts = verdicts.slice(start, start + samplesPerPair);
    shares.push(pairVerdicts.filter(Boolean).length / pairVerdicts.length);
  }
  return shares;
}

/** Up to `count` pairs of one task's episodes with exactly one correct, in random slot order. */
function mixedPairs(episodes: readonly Episode[], count: number, random: Rng): [Episode, Episode][] {
  const pairs: [Episode, Episode][] = [];
  for (let first = 0; first < episodes.length; first++) {
    for (let second = first + 1; second < episodes.length; second++) {
      if (episodes[first]!.score.isCorrect !== episodes[second]!.score.isCorrect) {
        pairs.push(random() < 0.5 ? [episodes[first]!, episodes[second]!] : [episodes[second]!, episodes[first]!]);
      }
    }
  }
  return shuffled(pairs, random).slice(0, count);
}
