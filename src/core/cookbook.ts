/** The plugin contract: an AgentFlow produces an episode, an Evaluator scores it; a Cookbook bundles both. */
import type { z } from "zod";
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

/** What a cookbook's `configure` may use besides its options: what only the run can provide. */
export interface CookbookContext {
  /** A client for `model` on the run's endpoint (e.g. an LLM judge); an InputError where the run has none to offer. */
  createClient(model: string): LlmClient;
}

/** An agent flow and its evaluator under one name: what `--cookbook` selects. */
export interface Cookbook {
  name: string;
  description: string;
  flow: AgentFlow;
  evaluate: Evaluator;
  /**
   * The name of a scripted agent that calls no model (the terminal cookbook's `oracle` and `nop`): a run then starts
   * no model and is labelled with the agent instead of a model.
   */
  scriptedAgent?: string;
  /** A comparable answer for maj@k (e.g. the normalised boxed value); absent when answers are not comparable. */
  extractAnswer?: (task: Task, episode: Episode) => string | undefined;
  /**
   * The options `rllm eval --set key=value` may give, as a strict zod object (defaults included); absent when the
   * cookbook takes none. A cookbook with options also has `configure`.
   */
  optionsSchema?: z.ZodObject;
  /** A copy configured with options that passed `optionsSchema`. */
  configure?(options: Record<string, unknown>, context: CookbookContext): Cookbook;
}
