/** The public API of rllm-ts: everything not listed here is internal and may change. */

// Data model (zod schemas and the types inferred from them).
export { TaskSchema, type Task } from "./core/task.js";
export { StepSchema, TokenUsageSchema, type Step, type TokenUsage } from "./core/step.js";
export { TrajectorySchema, type Trajectory } from "./core/trajectory.js";
export { EpisodeSchema, episodeId, type Episode, type ErrorClass, type TerminationReason } from "./core/episode.js";
export { EvalOutputSchema, type EvalOutput } from "./core/eval-output.js";
export { ChatMessageSchema, type ChatMessage, type ContentBlock, type ToolCall, type ToolDefinition, messageText } from "./core/message.js";

// Plugin contracts.
export type { AgentFlow, Evaluator, Cookbook, FlowContext } from "./core/cookbook.js";
export type { Benchmark, LoadTasksOptions, HubDatasetSource } from "./core/benchmark.js";

// Errors a flow throws to classify a failure.
export { InfraError } from "./core/errors/infra-error.js";
export { ModelError } from "./core/errors/model-error.js";
export { InputError } from "./core/errors/input-error.js";

// LLM client.
export type { LlmClient, ChatRequest, ChatResponse, ChatChoice, SamplingParams } from "./core/llm-client.js";
export { createOpenAiClient, type OpenAiClientOptions } from "./llm/openai-client.js";
export { stepFromChat } from "./llm/step-from-chat.js";

// Datasets and the engine.
export { loadQaTasks, readJsonlRows } from "./core/dataset.js";
export { runEval, type EvalRunOptions, type EvalRunResult } from "./engine/run-eval.js";
export { runPaths, openRunDirectory } from "./engine/run-directory.js";
export { readEpisodes } from "./engine/episode-log.js";

// Metrics.
export { passAtK } from "./metrics/pass-at-k.js";
export { accuracyStats, wilsonInterval } from "./metrics/accuracy.js";
export { summarizeRun, type RunSummary } from "./metrics/summarize-run.js";

// Verifiers.
export { gradeMath, gradeMathBatch, extractMathAnswer, MathPolicySchema, defaultMathPolicy } from "../verifiers/math/index.js";
export { CodeGrader, normalizeTests, SandboxUnavailableError } from "../verifiers/code/index.js";
export { gradeFinqaAnswer, tableAccess, finqaReward } from "../verifiers/finqa/index.js";

// Tournaments and reranking.
export { SelectionMethodSchema, runSelection, createLlmJudge, parsePairRatings, rerankCandidates, rerankTaskEpisodes, startRerankServer, simulateTournament, createRng } from "./tournament/index.js";
export type { Judge, SelectionConfig, SelectionMethod, TournamentRecord } from "./tournament/index.js";

// The embedded model.
export { loadTinyModel } from "./models/tiny/index.js";
export { startTinyServer } from "./models/tiny/server.js";

// Training.
export { grpoAdvantages, drGrpoAdvantages, rlooAdvantages, reinforceAdvantages, reinforcePlusPlusAdvantages } from "./training/advantages/index.js";
export { transformEpisodes } from "./training/transforms/index.js";
export { pairVerifierReward } from "./training/joint-reward.js";
export type { TrainingBackend } from "./training/backend.js";
export { startGateway } from "./training/gateway/gateway-server.js";
export { runTraining } from "./training/loop/run-training.js";
export { TrainConfigSchema } from "./training/train-config.js";
