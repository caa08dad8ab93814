/** The public surface of the tournament module: selection methods, judges, reranking, the simulator. */

// Selection methods and their protocol
export { SelectionMethodSchema, SlotPolicySchema, defaultSelectionConfig, selectionProcess } from "./selection-methods.js";
export type { SelectionConfig, SelectionMethod } from "./selection-methods.js";
export { runSelection, runSelectionSync } from "./selection-process.js";
export type { JudgeRequest, JudgeVerdict, SelectionProcess, SlotPolicy } from "./selection-process.js";
export { V1OptionsSchema } from "./v1-infer.js";
export type { V1Options } from "./v1-infer.js";
export { AdaptiveDuelOptionsSchema } from "./adaptive-duel.js";
export type { AdaptiveDuelOptions } from "./adaptive-duel.js";
export { fitBradleyTerry } from "./bradley-terry.js";
export { TournamentRecordSchema } from "./tournament-record.js";
export type { ComparisonRecord, Selection, TournamentRecord } from "./tournament-record.js";
export { createRng } from "../core/random.js";
export type { Rng } from "../core/random.js";

// Judges
export type { Judge, PairJudgement, PointJudgement } from "./judge.js";
export { createLlmJudge } from "./llm-judge.js";
export type { JudgeKind } from "./judge-prompts.js";
export { parsePairRatings, parsePointRating } from "./parse-ratings.js";

// Reranking at inference time
export { rerankCandidates } from "./rerank-candidates.js";
export { rerankTaskEpisodes } from "./rerank-task-episodes.js";
export type { RerankTaskOptions, RerankTaskResult } from "./rerank-task-episodes.js";
export { rerankMetrics } from "./rerank-metrics.js";
export { createEvalReranker, TournamentLineSchema } from "./eval-reranker.js";
export { startRerankServer } from "./rerank-server.js";

// The simulator
export { simulateTournament } from "./simulate-tournament.js";
export type { SimulationRow } from "./simulate-tournament.js";
