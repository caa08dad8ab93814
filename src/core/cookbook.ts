/** The plugin contract: an AgentFlow produces an episode, an Evaluator scores it; a Cookbook bundles both. */
import type { z } from "zod";
import type { Episode } from "./episode.js";
import type { Score } from "./score.js";
import type { Task } from "./task.js";
import type { Trajectory } from "./trajectory.js";
import type { LlmClient, SamplingParams } from "./llm-client.js";
import type { PoolDefinition, RunResources } from "./run-resources.js";
import type { SandboxSetting } from "./sandbox-setting.js";

/** What a flow gets for one (task, attempt): the model, its sampling, and the run's sandbox and pools. */
export interface FlowContext extends RunResources {
  client: LlmClient;
  sampling: SamplingParams;
  /** 0-based attempt index of this (task, attempt) pair. */
  attempt: number;
  /** Aborted on timeout or Ctrl-C; pass it on to client calls. */
  signal: AbortSignal;
}

/** An agent flow returns a whole Episode, or just a Trajectory that the engine wraps. */
export type AgentFlow = (task: Task, context: FlowContext) => Promise<Episode | Trajectory>;

/** What an evaluator gets besides the task and the episode: the run's sandbox and pools, and its cancellation. */
export interface EvaluatorContext extends RunResources {
  /** Aborted on Ctrl-C; pass it on to anything slow. */
  signal: AbortSignal;
}

/**
 * Scores one episode; an answer it cannot grade is `unscored(reason)`, never a silent 0. An evaluator that needs no
 * sandbox or pool may leave out the context.
 */
export type Evaluator = (task: Task, episode: Episode, context: EvaluatorContext) => Score | Promise<Score>;

/** Which pairwise judge prompt reranks a cookbook's answers: the math rubric judges a final answer, the code rubric a program. */
export type JudgeKind = "math" | "code";

/** What a cookbook's `configure` may use besides its options: what only the run can provide. */
export interface CookbookContext {
  /** A client for `model` on the run's endpoint (e.g. an LLM judge); an InputError where the run has none to offer. */
  createClient(model: string): LlmClient;
  /** The sandbox the run will use, so that options it cannot honour are refused while planning. */
  sandbox: SandboxSetting;
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
  /** The judge prompt `--rerank` and `rllm train`'s reranking use for its answers (default "math": a final answer). */
  judgeKind?: JudgeKind;
  /** The training settings it ships (a train.json of its own), which `rllm train` reads when given no --config. */
  trainConfig?: string;
  /** Pools its flow or evaluator asks for, which the run opens as it starts so that they are warm for the first episode. */
  pools?: readonly PoolDefinition<unknown>[];
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
