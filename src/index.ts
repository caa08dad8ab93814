/**
 * The public API of rllm-ts (the package's root entry): the data model, the plugin and LLM contracts, the OpenAI-style
 * client, the engine and the metrics. It loads no TensorFlow. Verifiers, tournaments, training, the tiny model and
 * test fakes are the subpaths `rllm-ts/verifiers`, `/tournament`, `/training`, `/tiny` and `/test`; what the built-in
 * plugins are built on, `rllm-ts/core`, `/flows`, `/datasets` and `/llm` (this entry loads the plugins, so they may not
 * import it). Everything not listed in an entry is internal and may change.
 */

// Data model (zod schemas and the types inferred from them).
export { TaskSchema, type Task } from "./core/task.js";
export { StepSchema, TokenUsageSchema, type Step, type TokenUsage } from "./core/step.js";
export { TrajectorySchema, type Trajectory } from "./core/trajectory.js";
export { EpisodeSchema, TargetSchema, episodeId, type Episode, type Target, type ErrorClass, type TerminationReason } from "./core/episode.js";
export { ScoreSchema, scored, unscored, type Score, type ScoreStatus } from "./core/score.js";
export { episodeAnswer } from "./core/episode-answer.js";
export { RunSummarySchema, type RunSummary } from "./core/run-summary.js";
export { RunConfigSchema, type RunConfig } from "./core/run-config.js";
export { ChatMessageSchema, type ChatMessage, type ContentBlock, type ToolCall, type ToolDefinition, messageText } from "./core/message.js";

// Plugin contracts.
export type { AgentFlow, Evaluator, Cookbook, CookbookContext, FlowContext } from "./core/cookbook.js";
export type { Benchmark, LoadTasksOptions, HubDatasetSource } from "./core/benchmark.js";
export type { Environment, EnvironmentStep, EnvironmentOutcome } from "./core/environment.js";

// Errors a flow throws to classify a failure.
export { InfraError } from "./core/errors/infra-error.js";
export { ModelError } from "./core/errors/model-error.js";
export { InputError } from "./core/errors/input-error.js";
export { EndpointConfigurationError } from "./core/errors/endpoint-configuration-error.js";

// The LLM contract and the OpenAI-compatible client.
export type { LlmClient, ChatRequest, ChatResponse, ChatChoice, SamplingParams } from "./core/llm-client.js";
export { createOpenAiClient, type OpenAiClientOptions } from "./llm/openai-client.js";
export { stepFromChat } from "./llm/step-from-chat.js";

// Datasets and the engine.
export { loadQaTasks, readJsonlRows } from "./core/dataset.js";
export { runEval, type EvalRunOptions, type EvalRunResult } from "./engine/run-eval.js";
export { runPaths, openRunDirectory } from "./runs/run-directory.js";
export { readEpisodes } from "./runs/episode-log.js";
export { readRunConfig, readRunSummary } from "./runs/read-run-files.js";
// The eval application's services: the model call pipeline (retries, rate limit, response cache) and what every run
// of one invocation shares (the cache, a limiter per endpoint, the price table).
export { buildModelCallPipeline, createRateLimiter, type PipelineOptions, type ModelCallPipeline, type CacheSetting } from "./evaluation/model-call-pipeline.js";
export { openRunServices, type RunServices, type RunServiceOptions } from "./evaluation/run-services.js";
// The eval application as `rllm eval` runs it: typed options → a checked plan (reads only) → a run on the shared
// services, with progress and Ctrl-C as hooks; and an eval set of models × benchmarks, one run folder per cell.
export { EvalOptionsSchema, type EvalOptions, type EvalOptionsInput } from "./evaluation/eval-options.js";
export { planEval, type EvalPlan, type PlanEvalHooks } from "./evaluation/plan-eval.js";
export { executeEvalPlan, type EvalExecutionHooks, type EvalOutcome } from "./evaluation/execute-eval-plan.js";
export type { EvalProgress } from "./evaluation/eval-progress.js";
export { evaluateSet, parseEvalSetConfig, type EvalSetOptions, type EvalSetHooks, type EvalSetOutcome } from "./evaluation/evaluate-set.js";
export { EvalSetConfigSchema, type EvalSetConfig } from "./core/eval-set-config.js";
export type { SetComparisonRow } from "./core/set-summary.js";
// The one-call flow the built-in cookbooks are built on.
export { singleTurnFlow, systemThenInstruction } from "./engine/single-turn-flow.js";
// Multi-turn: any Environment driven by a model through an EnvironmentAgent, and the Score of its outcome.
export { environmentFlow, type EnvironmentAgent, type EnvironmentFlowOptions, type AgentDecision } from "./engine/environment-flow.js";
export { scoreEnvironmentEpisode } from "./engine/score-environment-episode.js";

// Seeded randomness.
export { createRng, type Rng } from "./core/random.js";

// Metrics.
export { passAtK } from "./metrics/pass-at-k.js";
export { accuracyStats, wilsonInterval } from "./metrics/accuracy.js";
export { summarizeRun } from "./metrics/summarize-run.js";
