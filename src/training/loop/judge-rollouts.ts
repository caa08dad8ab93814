/**
 * V1-PairRL's verifier half: the policy judges pairs of its own solutions to each task (only pairs with at least one
 * correct solution), and each judge call becomes a scored `judge` trajectory with the sparse pairwise reward.
 */
import pLimit from "p-limit";
import type { Limited } from "./priority-limit.js";
import { EpisodeSchema, episodeId, type Episode } from "../../core/episode.js";
import { messageText } from "../../core/message.js";
import type { Task } from "../../core/task.js";
import { createOpenAiClient } from "../../llm/openai-client.js";
import type { SamplingParams } from "../../core/llm-client.js";
import { createLlmJudge } from "../../tournament/llm-judge.js";
import { episodeAnswer } from "../../core/episode-answer.js";
import { scored } from "../../core/score.js";
import type { JudgeKind } from "../../tournament/judge-prompts.js";
import { deriveSeed, type Rng } from "../../core/random.js";
import type { Gateway } from "../../gateway/gateway-server.js";
import { isPairJudgedCorrectly, pairVerifierReward, verifierPairs, type VerifierPairing } from "../joint-reward.js";
import { attachGatewaySteps } from "./attach-gateway-steps.js";

export interface JudgeRolloutOptions {
  gateway: Gateway;
  /** The model name each judge call asks for, or a function giving it as the call starts (a pinned version). */
  model: string | (() => string);
  sampling: SamplingParams;
  judgeKind: JudgeKind;
  pairsPerTask: number;
  /** Which pairs are judged (default: the paper's, at least one correct). */
  pairing?: VerifierPairing;
  /** Judge calls per pair: with more than one, the judge's group baseline compares verdicts on the same prompt. */
  samplesPerPair?: number;
  concurrency: number;
  /** Shared with other calls (the async loop's groups), so `concurrency` bounds them together; absent: one of its own. */
  limit?: Limited;
  random: Rng;
  /**
   * Seed of this batch's judge calls: each call samples with a seed derived from it, its task and its judge attempt,
   * so the verdicts replay whatever order the calls finish in (an unseeded call draws from the sampler's own random state).
   */
  seed: number;
  signal: AbortSignal;
  sessionPrefix: string;
}

/** The judge episodes, and how often mixed (one right, one wrong) pairs were ranked the right way round. */
export interface JudgeRolloutResult {
  episodes: Episode[];
  /** Mixed pairs judged, and of those ranked correctly. */
  mixedPairs: number;
  mixedCorrect: number;
  /** Mean pairwise verifier reward over every judged pair. */
  meanReward: number;
  parseErrors: number;
}

/** Judges pairs of `solverEpisodes` (grouped by task); judge episode attempts continue after the solver attempts. */
export async function judgeRollouts(
  tasks: readonly Task[],
  solverEpisodes: readonly Episode[],
  options: JudgeRolloutOptions,
): Promise<JudgeRolloutResult> {
  const limit: Limited = options.limit ?? pLimit(options.concurrency);
  const jobs: Promise<{ episode: Episode; isMixed: boolean; isRanked: boolean; reward: number; parseError: boolean }>[] = [];
  for (const task of tasks) {
    const candidates = solverEpisodes
      .filter((episode) => episode.taskId === task.id && episode.errorClass !== "infra_error")
      .sort((first, second) => first.attempt - second.attempt);
    const firstJudgeAttempt = Math.max(-1, ...solverEpisodes.filter((episode) => episode.taskId === task.id).map((episode) => episode.attempt)) + 1;
    const problem = messageText(task.instruction);
    const pairs = verifierPairs(candidates.map((episode) => episode.score.isCorrect), options.pairsPerTask, options.random, options.pairing);
    const samplesPerPair = options.samplesPerPair ?? 1;
    const calls = pairs.flatMap((pair) => Array.from({ length: samplesPerPair }, () => pair));
    calls.forEach((pair, index) => {
      const first = candidates[pair.indexA]!;
      const second = candidates[pair.indexB]!;
      jobs.push(
        limit(async () => {
          const attempt = firstJudgeAttempt + index;
          // One session per judge call: the gateway strips token ids from replies, so the step takes them from its own trace.
          const sessionId = `${options.sessionPrefix}/judge/${episodeId(task.id, attempt)}`;
          const client = createOpenAiClient({ baseUrl: options.gateway.sessionUrl(sessionId), model: typeof options.model === "string" ? options.model : options.model() });
          const sampling = { ...options.sampling, seed: deriveSeed(options.seed, task.id, attempt) };
          const judge = createLlmJudge({ client, kind: options.judgeKind, sampling, concurrency: 1, signal: options.signal });
          const judgement = await judge.compare(problem, episodeAnswer(first), episodeAnswer(second));
          const ratings = judgement.parseError ? null : { ratingA: judgement.ratingA!, ratingB: judgement.ratingB! };
          const reward = pairVerifierReward(ratings, first.score.isCorrect, second.score.isCorrect);
          const isRanked = isPairJudgedCorrectly(ratings, first.score.isCorrect, second.score.isCorrect);
          const episode = EpisodeSchema.parse({
            id: episodeId(task.id, attempt),
            taskId: task.id,
            attempt,
            score: scored(reward, isRanked),
            artifacts: { judgedAttempts: [first.attempt, second.attempt] },
            trajectories: [{ name: "judge", reward, steps: judgement.step ? [judgement.step] : [] }],
          });
          const traced = attachGatewaySteps(episode, options.gateway.steps(sessionId));
          options.gateway.deleteSession(sessionId);
          return { episode: traced, isMixed: first.score.isCorrect !== second.score.isCorrect, isRanked, reward, parseError: judgement.parseError };
        }),
      );
    });
  }
  const results = await Promise.all(jobs);
  const mixed = results.filter((result) => result.isMixed);
  return {
    episodes: results.map((result) => result.episode),
    mixedPairs: mixed.length,
    mixedCorrect: mixed.filter((result) => result.isRanked).length,
    meanReward: results.length === 0 ? 0 : results.reduce((sum, result) => sum + result.reward, 0) / results.length,
    parseErrors: results.filter((result) => result.parseError).length,
  };
}
