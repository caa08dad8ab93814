/** The `rllm eval --rerank` hooks: rerank each task once its N attempts are scored, save the records, add rerank@1 to the summary. */
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { z } from "zod";
import type { Episode } from "../core/episode.js";
import { describeIssues } from "../core/errors/input-error.js";
import type { Task } from "../core/task.js";
import { TrajectorySchema } from "../core/trajectory.js";
import type { LlmClient, SamplingParams } from "../core/llm-client.js";
import type { RunSummary } from "../metrics/summarize-run.js";
import type { JudgeKind } from "./judge-prompts.js";
import { rerankMetrics } from "./rerank-metrics.js";
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
  record: TournamentRecordSchema,
  judgeTrajectory: TrajectorySchema,
});
export type TournamentLine = z.infer<typeof TournamentLineSchema>;

/** A task whose rerank failed (the judge endpoint gave up): recorded, left out of rerank@1, counted in rerankErrors. */
export const TournamentErrorLineSchema = z.object({
  taskId: z.string(),
  method: SelectionMethodSchema,
  budget: z.number(),
  error: z.string(),
});
export type TournamentErrorLine = z.infer<typeof TournamentErrorLineSchema>;

export interface EvalRerankerOptions {
  methods: readonly SelectionMethod[];
  /** Judge calls as a multiple of N. */
  budget: number;
  client: LlmClient;
  sampling?: SamplingParams;
  judgeKind: JudgeKind;
  seed: number;
  /** Where the per-task lines go (appended, so a resumed run keeps earlier tasks' records). */
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

/** Hooks for runEval's `onTaskComplete` and `extendSummary`. */
export function createEvalReranker(options: EvalRerankerOptions) {
  return {
    /** Reranks the task's scored episodes (infra failures left out) with every method and appends one line per method. */
    async onTaskComplete(task: Task, episodes: Episode[]): Promise<void> {
      const candidates = episodes.filter((episode) => episode.errorClass !== "infra_error").sort((first, second) => first.attempt - second.attempt);
      if (candidates.length === 0) return;
      for (const method of options.methods) {
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
          const line: TournamentErrorLine = { taskId: task.id, method, budget: options.budget, error: error instanceof Error ? error.message : String(error) };
          appendFileSync(options.file, `${JSON.stringify(line)}\n`);
          continue;
        }
        const line: TournamentLine = {
          taskId: task.id,
          method,
          budget: options.budget,
          chosenIndex: result.chosenIndex,
          chosenEpisodeId: candidates[result.chosenIndex]!.id,
          isCorrect: result.isCorrect,
          judgeCalls: result.judgeCalls,
          judgeTokens: result.usage.promptTokens + result.usage.completionTokens,
          record: result.record,
          judgeTrajectory: result.judgeTrajectory,
        };
        appendFileSync(options.file, `${JSON.stringify(line)}\n`);
      }
    },
    /**
     * Adds metrics["rerank@1"], metrics.judgeCalls and metrics.judgeTokens (keyed by method) for the run's tasks,
     * and metrics.rerankErrors when some task could not be reranked.
     */
    extendSummary(summary: RunSummary, episodes: Episode[]): RunSummary {
      const taskIds = new Set(episodes.map((episode) => episode.taskId));
      const lines = readTournamentLines(options.file).filter((line) => taskIds.has(line.taskId) && options.methods.includes(line.method));
      // A task reranked twice (a resumed run) counts once, with its latest line.
      const latest = [...new Map(lines.map((line) => [`${line.taskId}\u0000${line.method}`, line])).values()];
      const metrics = rerankMetrics(latest.filter((line): line is TournamentLine => !("error" in line)));
      const rerankErrors: Record<string, number> = {};
      for (const line of latest) if ("error" in line) rerankErrors[line.method] = (rerankErrors[line.method] ?? 0) + 1;
      return { ...summary, metrics: { ...summary.metrics, ...metrics, ...(Object.keys(rerankErrors).length > 0 ? { rerankErrors } : {}) } };
    },
  };
}

/** Reads `tournaments.jsonl` (absent: no lines); a bad line names the file and line. */
export function readTournamentLines(file: string): Array<TournamentLine | TournamentErrorLine> {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .flatMap((text, index) => {
      if (text.trim() === "") return [];
      const parsed = z.union([TournamentLineSchema, TournamentErrorLineSchema]).safeParse(JSON.parse(text));
      if (!parsed.success) throw new Error(describeIssues(file, index + 1, parsed.error));
      return [parsed.data];
    });
}
