/** The `rllm eval --rerank` hooks: rerank each task once its N attempts are scored, save the records, add rerank@1 to the summary. */
import { z } from "zod";
import type { Episode } from "../core/episode.js";
import type { Task } from "../core/task.js";
import { TrajectorySchema } from "../core/trajectory.js";
import { JsonlAppender, readJsonl } from "../runs/append-only-jsonl.js";
import type { SummaryExtension } from "../engine/run-eval.js";
import type { LlmClient, SamplingParams } from "../core/llm-client.js";
import type { RunSummary } from "../metrics/summarize-run.js";
import { addCost, trajectoriesCost } from "../metrics/run-cost.js";
import type { ModelPrice } from "../core/price-table.js";
import type { Step } from "../core/step.js";
import type { JudgeKind } from "./judge-prompts.js";
import { rerankMetrics, rerankOutcome, type JudgeUsage } from "./rerank-metrics.js";
import { rerankTaskEpisodes } from "./rerank-task-episodes.js";
import type { SelectionMethod } from "./selection-methods.js";
import { SelectionMethodSchema } from "./selection-methods.js";
import { TournamentRecordSchema } from "./tournament-record.js";

/** One line of `<run>/tournaments.jsonl`: a task's rerank by one method, with every judge call. */
export const TournamentLineSchema = z.object({
  taskId: z.string(),
  method: SelectionMethodSchema,
  /** Budget as a multiple of N. */
  budget: z.number(),
  chosenIndex: z.number().int().nonnegative(),
  chosenEpisodeId: z.string(),
  isCorrect: z.boolean(),
  judgeCalls: z.number().int().nonnegative(),
  judgeTokens: z.number().int().nonnegative(),
  /**
   * The judge calls' tokens split by kind (cachedPromptTokens: served from the provider's prompt cache). Lines written
   * before this field have none: `judgeUsageOf` sums them from `judgeTrajectory`'s steps, which record every call.
   */
  judgeUsage: z.object({ promptTokens: z.number().int().nonnegative(), completionTokens: z.number().int().nonnegative(), cachedPromptTokens: z.number().int().nonnegative() }).optional(),
  record: TournamentRecordSchema,
  judgeTrajectory: TrajectorySchema,
});
export type TournamentLine = z.infer<typeof TournamentLineSchema>;

/** A task whose rerank failed (the judge endpoint gave up): recorded, left out of rerank@1, retried by --resume. */
export const TournamentErrorLineSchema = z.object({
  taskId: z.string(),
  method: SelectionMethodSchema,
  budget: z.number(),
  error: z.string(),
});
export type TournamentErrorLine = z.infer<typeof TournamentErrorLineSchema>;

/** A line's judge tokens: its `judgeUsage`, or for lines written before that field, the sums over its judge calls. */
export function judgeUsageOf(line: Pick<TournamentLine, "judgeUsage" | "judgeTrajectory">): JudgeUsage {
  return line.judgeUsage ?? sumJudgeUsage(line.judgeTrajectory.steps);
}

function sumJudgeUsage(steps: readonly Step[]): JudgeUsage {
  const usage = { promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0 };
  for (const step of steps) {
    usage.promptTokens += step.usage.promptTokens;
    usage.completionTokens += step.usage.completionTokens;
    usage.cachedPromptTokens += step.usage.cachedPromptTokens ?? 0;
  }
  return usage;
}

const TournamentLogLineSchema = z.union([TournamentLineSchema, TournamentErrorLineSchema]);
type TournamentLogLine = z.infer<typeof TournamentLogLineSchema>;

export interface EvalRerankerOptions {
  methods: readonly SelectionMethod[];
  /** Judge calls as a multiple of N. */
  budget: number;
  client: LlmClient;
  sampling?: SamplingParams;
  judgeKind: JudgeKind;
  seed: number;
  /** The judge model's prices: its calls go into summary.json's `cost` (`byRole.judge`) and into `spent`. */
  price?: ModelPrice;
  /** Where the per-task lines go (appended, so a resumed run keeps earlier tasks' records; a torn tail is cut first). */
  file: string;
  concurrency?: number;
  signal?: AbortSignal;
}

/** The plain text of a task's instruction (image blocks left out). */
function instructionText(task: Task): string {
  return typeof task.instruction === "string"
    ? task.instruction
    : task.instruction.map((block) => (block.type === "text" ? block.text : "")).join("");
}

/** What createEvalReranker returns: runEval's hooks, the judge spend, and `close`. */
export type EvalReranker = ReturnType<typeof createEvalReranker>;

/**
 * Hooks for runEval's `onTaskComplete` and `extendSummary`, and `close` for the log. `onTaskComplete` is idempotent:
 * a method whose latest line for the task is a tournament over the same candidates is not run again, so runEval may
 * call it for every task whose attempts are all recorded, on every resume.
 */
export function createEvalReranker(options: EvalRerankerOptions) {
  // Open (repairing a torn tail) before reading, so what is read is what later lines are appended to.
  const log = new JsonlAppender<TournamentLogLine>(options.file);
  const latest = new Map<string, TournamentLogLine>();
  const key = (taskId: string, method: string) => `${taskId}\u0000${method}`;
  // The judge calls' cost of the current lines, kept as lines are replaced, so that `spent` is cheap to ask often.
  const lineCost = (line: TournamentLogLine | undefined) =>
    line === undefined || "error" in line || !options.price || !options.methods.includes(line.method) ? 0 : trajectoriesCost([line.judgeTrajectory], options.price).total;
  let judgeSpent = 0;
  const remember = (line: TournamentLogLine) => {
    const lineKey = key(line.taskId, line.method);
    judgeSpent += lineCost(line) - lineCost(latest.get(lineKey));
    latest.set(lineKey, line);
  };
  const record = (line: TournamentLogLine) => {
    log.append(line);
    remember(line);
  };
  try {
    for (const { record: line } of readJsonl(options.file, TournamentLogLineSchema)) remember(line);
  } catch (error) {
    log.close();
    throw error;
  }

  return {
    /** Reranks the task's scored episodes (infra failures left out) with every method that has no current line, appending one line per method. */
    async onTaskComplete(task: Task, episodes: Episode[]): Promise<void> {
      const candidates = episodes.filter((episode) => episode.errorClass !== "infra_error").sort((first, second) => first.attempt - second.attempt);
      if (candidates.length === 0) return;
      for (const method of options.methods) {
        const previous = latest.get(key(task.id, method));
        // Recorded episodes never change and only infra failures rerun, so the same count means the same candidates.
        if (previous !== undefined && !("error" in previous) && previous.record.candidateCount === candidates.length) continue;
        let result: Awaited<ReturnType<typeof rerankTaskEpisodes>>;
        try {
          result = await rerankTaskEpisodes({
            problem: instructionText(task),
            episodes: candidates,
            judgeKind: options.judgeKind,
            method,
            budget: options.budget,
            client: options.client,
            sampling: options.sampling,
            seed: options.seed,
            concurrency: options.concurrency,
            signal: options.signal,
          });
        } catch (error) {
          if (options.signal?.aborted) throw error;
          record({ taskId: task.id, method, budget: options.budget, error: error instanceof Error ? error.message : String(error) });
          continue;
        }
        record({
          taskId: task.id,
          method,
          budget: options.budget,
          chosenIndex: result.chosenIndex,
          chosenEpisodeId: candidates[result.chosenIndex]!.id,
          isCorrect: result.isCorrect,
          judgeCalls: result.judgeCalls,
          judgeTokens: result.usage.promptTokens + result.usage.completionTokens,
          judgeUsage: sumJudgeUsage(result.judgeTrajectory.steps),
          record: result.record,
          judgeTrajectory: result.judgeTrajectory,
        });
      }
    },
    /**
     * Adds `rerank.<method>` (tasks reranked of expected, judge tokens and cost, parse errors, ties, status), the judge
     * calls to `cost` (total, byRole.judge) when priced, and, keyed by method,
     * metrics["rerank@1"] (methods not failed), metrics.judgeCalls and metrics.judgeTokens. Tasks without a tournament
     * line are unfinished work.
     */
    extendSummary(summary: RunSummary, episodes: Episode[]): SummaryExtension {
      const taskIds = new Set(episodes.map((episode) => episode.taskId));
      const lines = [...latest.values()].filter((line) => taskIds.has(line.taskId) && options.methods.includes(line.method));
      const tournaments = lines.filter((line): line is TournamentLine => !("error" in line));
      const rerankErrors: Record<string, number> = {};
      for (const line of lines) if ("error" in line) rerankErrors[line.method] = (rerankErrors[line.method] ?? 0) + 1;
      const rerank = rerankMetrics(
        tournaments.map((line) =>
          rerankOutcome(line.method, line.record, line.isCorrect, line.judgeTokens, {
            usage: judgeUsageOf(line),
            ...(options.price ? { cost: trajectoriesCost([line.judgeTrajectory], options.price).total } : {}),
          }),
        ),
        { methods: options.methods, tasksExpected: summary.counts.tasks, rerankErrors },
      );
      const metrics = { "rerank@1": {} as Record<string, number>, judgeCalls: {} as Record<string, number>, judgeTokens: {} as Record<string, number> };
      for (const [method, result] of Object.entries(rerank)) {
        if (result["rerank@1"] !== null) metrics["rerank@1"][method] = result["rerank@1"];
        metrics.judgeCalls[method] = result.judgeCalls;
        metrics.judgeTokens[method] = result.judgeTokens;
      }
      const unfinished = Object.entries(rerank)
        .filter(([, result]) => result.tasksReranked < result.tasksExpected)
        .map(([method, result]) => `rerank ${method}: ${result.tasksExpected - result.tasksReranked} of ${result.tasksExpected} tasks have no tournament`);
      const cost = summary.cost && options.price ? addCost(summary.cost, trajectoriesCost(tournaments.map((line) => line.judgeTrajectory), options.price)) : summary.cost;
      return { summary: { ...summary, metrics: { ...summary.metrics, ...metrics }, rerank, ...(cost ? { cost } : {}) }, unfinished };
    },
    /** Each method's tournaments so far over `taskIds` (earlier invocations' included): tasks reranked, judge calls, correct picks. */
    progress(taskIds: ReadonlySet<string>): { method: string; reranked: number; tasks: number; judgeCalls: number; correct: number }[] {
      return options.methods.map((method) => {
        const tally = { method, reranked: 0, tasks: taskIds.size, judgeCalls: 0, correct: 0 };
        for (const taskId of taskIds) {
          const line = latest.get(key(taskId, method));
          if (line === undefined || "error" in line) continue;
          tally.reranked += 1;
          tally.judgeCalls += line.judgeCalls;
          if (line.isCorrect) tally.correct += 1;
        }
        return tally;
      });
    },
    /** Dollars of the judge calls of every current tournament line (earlier invocations' included); 0 without prices. */
    spent(): number {
      return judgeSpent;
    },
    /** Closes tournaments.jsonl. */
    close(): void {
      log.close();
    },
  };
}
