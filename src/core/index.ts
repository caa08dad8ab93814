/**
 * `rllm-ts/core`: the contracts a benchmark, verifier or cookbook is written against (the data model, the plugin and
 * LLM contracts, the errors), and the helpers the built-in ones share. It sits below every plugin, so a plugin may
 * import it where it may not import the root entry (which re-exports the eval application, and that loads the plugins).
 */

// Data model (zod schemas and the types inferred from them).
export { TaskSchema, type Task } from "./task.js";
export { StepSchema, TokenUsageSchema, type Step, type TokenUsage } from "./step.js";
export { TrajectorySchema, type Trajectory } from "./trajectory.js";
export { EpisodeSchema, TargetSchema, episodeId, type Episode, type Target, type ErrorClass, type TerminationReason } from "./episode.js";
export { ScoreSchema, scored, unscored, type Score, type ScoreStatus } from "./score.js";
export { episodeAnswer } from "./episode-answer.js";
export { taskTarget } from "./task-target.js";
export { ChatMessageSchema, messageText, type ChatMessage, type ContentBlock, type ToolCall, type ToolDefinition } from "./message.js";

// Plugin contracts.
export type { AgentFlow, Evaluator, EvaluatorContext, Cookbook, CookbookContext, FlowContext, JudgeKind } from "./cookbook.js";
export type { PoolDefinition, PoolOpenContext, RunResources } from "./run-resources.js";
export type { Benchmark, BenchmarkCatalogEntry, LoadTasksOptions, HubDatasetSource } from "./benchmark.js";
export type { Environment, EnvironmentStep, EnvironmentOutcome } from "./environment.js";
// The sandbox contract (implemented by rllm-ts/sandbox)
export { SandboxRecordSchema, PythonRecordSchema, type Sandbox, type SandboxRecord, type PythonRecord } from "./sandbox.js";
export {
  SandboxSettingSchema,
  SandboxSettingInputSchema,
  defaultSandboxSetting,
  defaultSandboxApiKeyEnv,
  parseSandboxText,
  parseSandboxSetting,
  formatSandboxSetting,
  serviceUrls,
  withConfiguredKeys,
  SandboxServiceSchema,
  type SandboxService,
  type SandboxSetting,
  type SandboxSettingInput,
} from "./sandbox-setting.js";
export { SandboxSpecSchema, type SandboxEnvironment, type SandboxSpec, type SandboxRole, type ExecOptions, type ExecResult } from "./sandbox-environment.js";
export type {
  ProgramSandbox,
  ProgramSandboxOptions,
  LocalPrograms,
  RemotePrograms,
  ProgramJob,
  ProgramMode,
  RunBudget,
  ProcessOutcome,
  PooledRunResult,
} from "./program-sandbox.js";
export { SandboxLimitsSchema, type SandboxLimits } from "./sandbox-limits.js";
export {
  RunCodeRequestSchema,
  RunCodeResponseSchema,
  CommandRunResultSchema,
  outputExceededNote,
  sandboxFusionCapturedBytes,
  limitHeaders,
  runCodeUrl,
  supportedLanguages,
  type HostLimits,
  type RunCodeRequest,
  type RunCodeResponse,
  type ParsedRunCodeRequest,
  type CommandRunResult,
} from "./sandbox-fusion-protocol.js";
export type { LlmClient, ChatRequest, ChatResponse, ChatChoice, SamplingParams } from "./llm-client.js";
export { createRegistry, type Registry, type RegistryEntry } from "./registry.js";

// Errors: the class of a failure decides whether it is scored, retried or reported to the user.
export { InfraError } from "./errors/infra-error.js";
export { ModelError } from "./errors/model-error.js";
export { InputError, describeIssues } from "./errors/input-error.js";
export { EndpointConfigurationError } from "./errors/endpoint-configuration-error.js";
export { UnknownNameError } from "./errors/unknown-name-error.js";
export { AllHostsFailedError } from "./errors/all-hosts-failed-error.js";

// Reading rows and options a user gives.
export { RowIdSchema, loadQaTasks, readJsonlRows, readUniqueJsonlRows, assertUniqueIds } from "./dataset.js";
export { parseJsonFile } from "./parse-json-file.js";
export { parseSetOptions } from "./parse-set-options.js";

// Seeded randomness.
export { createRng, randomInt, randomIntBetween, type Rng } from "./random.js";

// Where things are: files shipped in the package, the download cache, the user's endpoints and services.
export { packagePath } from "./package-root.js";
export { rllmHome } from "./rllm-home.js";
export { readUserConfig, configuredSandbox, type UserConfig } from "./user-config.js";

// Worker threads on a TypeScript module, from the sources or the build alike.
export { startTsWorker } from "./worker.js";
