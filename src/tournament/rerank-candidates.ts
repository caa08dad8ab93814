/** Reranks the candidates of one problem with a selection method and a Judge; returns the record and the judge trajectory. */
import type { Step, TokenUsage } from "../core/step.js";
import type { Trajectory } from "../core/trajectory.js";
import type { Judge } from "./judge.js";
import { judgeRequests } from "./judge.js";
import type { SelectionConfig, SelectionMethod } from "./selection-methods.js";
import { selectionProcess } from "./selection-methods.js";
import { runSelection } from "./selection-process.js";
import { createRng } from "../core/random.js";
import type { TournamentRecord } from "./tournament-record.js";

export interface RerankCandidatesOptions {
  problem: string;
  candidates: readonly string[];
  judge: Judge;
  method: SelectionMethod;
  config: SelectionConfig;
  /** Seeds the bracket, the coverage order and the slot coins, so a rerun pairs the same way. */
  seed: number;
  /** Extracted answers, one per candidate (majority vote only). */
  answers?: ReadonlyArray<string | undefined>;
}

export interface RerankCandidatesResult {
  record: TournamentRecord;
  /** One Step per judge call, in request order, so a later training run can reward the verifier. */
  judgeTrajectory: Trajectory;
  usage: TokenUsage;
}

/** Runs the tournament over the candidates (at least one) and records every judge call. */
export async function rerankCandidates(options: RerankCandidatesOptions): Promise<RerankCandidatesResult> {
  if (options.candidates.length === 0) throw new Error("rerankCandidates needs at least one candidate");
  const steps: Array<{ step: Step; sequence: number }> = [];
  const process = selectionProcess(options.method, options.candidates.length, options.config, createRng(options.seed), options.answers);
  const selection = await runSelection(
    process,
    judgeRequests(options.judge, options.problem, options.candidates, (step, sequence) => steps.push({ step, sequence })),
  );
  const ordered = steps.sort((first, second) => first.sequence - second.sequence).map((entry) => entry.step);
  const usage = ordered.reduce(
    (total, step) => ({
      promptTokens: total.promptTokens + step.usage.promptTokens,
      completionTokens: total.completionTokens + step.usage.completionTokens,
    }),
    { promptTokens: 0, completionTokens: 0 },
  );
  const record: TournamentRecord = {
    ...selection,
    method: options.method,
    budget: options.config.budget,
    candidateCount: options.candidates.length,
  };
  const judgeTrajectory: Trajectory = {
    name: "judge",
    steps: ordered,
    reward: null,
    output: { method: options.method, chosenIndex: selection.chosenIndex },
    signals: { judgeCalls: selection.judgeCalls },
    info: { method: options.method, budget: options.config.budget },
  };
  return { record, judgeTrajectory, usage };
}
