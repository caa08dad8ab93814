/** The plugin contract: an AgentFlow produces an episode, an Evaluator scores it; a Cookbook bundles both. */
import type { Episode } from "./episode.js";
import type { Score } from "./score.js";
import type { Task } from "./task.js";
import type { Trajectory } from "./trajectory.js";
import type { LlmClient, SamplingParams } from "./llm-client.js";

export interface FlowContext {
  client: LlmClient;
  sampling: SamplingParams;
  /** 0-based attempt index of this (task, attempt) pair. */
  attempt: number;
  /** Aborted on timeout or Ctrl-C; pass it on to client calls. */
  signal: AbortSignal;
}

/** An agent flow returns a whole Episode, or just a Trajectory that the engine wraps. */
export type AgentFlow = (task: Task, context: FlowContext) => Promise<Episode | Trajectory>;

/** Scores one episode; an answer it cannot grade is `unscored(reason)`, never a silent 0. */
export type Evaluator = (task: Task, episode: Episode) => Score | Promise<Score>;

/** Options some cookbooks take from the command line. */
export interface CookbookOptions {
  /** An LLM judge for answers no deterministic grader can check (free-text gold answers). */
  judge?: LlmClient;
  /** Weight of a cookbook's shaping bonus in the reward (FinQA's table-access β). */
  beta?: number;
}

export interface Cookbook {
  name: string;
  description: string;
  flow: AgentFlow;
  evaluate: Evaluator;
  /** A comparable answer for maj@k (e.g. the normalised boxed value); absent when answers are not comparable. */
  extractAnswer?: (task: Task, episode: Episode) => string | undefined;
  /** A copy configured from eval flags (`--judge-model`, `--beta`); cookbooks without such options leave it out. */
  configure?: (options: CookbookOptions) => Cookbook;
  /** Which pairwise judge prompt suits this cookbook's answers when reranking. */
  judgeKind?: "math" | "code";
}
