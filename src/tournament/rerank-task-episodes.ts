/** Inference-time reranking inside `rllm eval`: the N scored episodes of one task → the pick of a method and its record. */
import type { Episode } from "../core/episode.js";
import { episodeAnswer } from "../core/episode-answer.js";
import type { TokenUsage } from "../core/step.js";
import type { Trajectory } from "../core/trajectory.js";
import type { LlmClient, SamplingParams } from "../core/llm-client.js";
import type { JudgeKind } from "./judge-prompts.js";
import { createLlmJudge } from "./llm-judge.js";
import { rerankCandidates } from "./rerank-candidates.js";
import type { SelectionConfig, SelectionMethod } from "./selection-methods.js";
import { defaultSelectionConfig } from "./selection-methods.js";
import type { TournamentRecord } from "./tournament-record.js";

export interface RerankTaskOptions {
  problem: string;
  /** The N scored episodes of one task, in attempt order. */
  episodes: readonly Episode[];
  judgeKind: JudgeKind;
  method: SelectionMethod;
  /** Budget as a multiple m of N (B = m·N judge calls). */
  budget: number;
  client: LlmClient;
  sampling?: SamplingParams;
  seed: number;
  /** Extracted answers per episode (majority vote); defaults to `artifacts.comparableAnswer`, else `artifacts.answer`. */
  answers?: ReadonlyArray<string | undefined>;
  /** Overrides of the published defaults (slot policy, V1 readings, knockout K). */
  config?: Partial<Omit<SelectionConfig, "budget">>;
  concurrency?: number;
  signal?: AbortSignal;
}

export interface RerankTaskResult {
  method: SelectionMethod;
  chosenIndex: number;
  /** Whether the chosen episode was graded correct: the rerank@1 outcome of this task. */
  isCorrect: boolean;
  scores: number[];
  judgeCalls: number;
  usage: TokenUsage;
  judgeTrajectory: Trajectory;
  record: TournamentRecord;
}

/** The answer majority vote compares: the cookbook's comparable answer, else the raw extracted one. */
function comparableAnswer(episode: Episode): string | undefined {
  const { comparableAnswer: comparable, answer } = episode.artifacts;
  if (typeof comparable === "string") return comparable;
  return typeof answer === "string" ? answer : undefined;
}

/** Reranks one task's episodes; the episodes are not modified (attach `judgeTrajectory` where you store them). */
export async function rerankTaskEpisodes(options: RerankTaskOptions): Promise<RerankTaskResult> {
  const episodes = [...options.episodes].sort((first, second) => first.attempt - second.attempt);
  const candidates = episodes.map(episodeAnswer);
  const answers = options.answers ?? episodes.map(comparableAnswer);
  const judge = createLlmJudge({
    client: options.client,
    kind: options.judgeKind,
    sampling: options.sampling,
    seed: options.seed,
    concurrency: options.concurrency,
    signal: options.signal,
  });
  const config: SelectionConfig = {
    ...defaultSelectionConfig(Math.round(options.budget * candidates.length)),
    ...options.config,
  };
  const { record, judgeTrajectory, usage } = await rerankCandidates({
    problem: options.problem,
    candidates,
    judge,
    method: options.method,
    config,
    seed: options.seed,
    answers,
  });
  return {
    method: options.method,
    chosenIndex: record.chosenIndex,
    isCorrect: episodes[record.chosenIndex]?.score.isCorrect ?? false,
    scores: record.scores,
    judgeCalls: record.judgeCalls,
    usage,
    judgeTrajectory,
    record,
  };
}
