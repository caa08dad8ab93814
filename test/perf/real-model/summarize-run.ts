/**
 * The figures of docs/results/2026-12-real-model.md from `rllm eval -n 8 [--rerank …]` run folders, or from `rllm rerank`
 * rows (rerank-rows.ts) with the `--records` files of its runs (majority vote included): pass@1 (mean over the
 * attempts), pass@8, rerank@1 of every method with its judge calls, parse errors and tie-breaks (also for a method
 * the parse-error rule failed: its picks are then mostly seeded tie-breaks), and the judge's accuracy on mixed pairs
 * (one correct candidate, one not: right when the correct one got the strictly higher rating; a tie or an unreadable
 * reply is not right). Standard errors are by task.
 * `node --import tsx test/perf/real-model/summarize-run.ts <run-dir>...`
 * `node --import tsx test/perf/real-model/summarize-run.ts --rows rows.jsonl records.jsonl...`
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

const EpisodeSchema = z.object({ taskId: z.string(), attempt: z.number(), score: z.object({ isCorrect: z.boolean().optional() }).nullish() });
const RowSchema = z.object({ id: z.string(), candidates: z.array(z.object({ isCorrect: z.boolean() })) });
// A line of tournaments.jsonl: a task's pick by one method, with its record of every verdict (a failed rerank has none).
// A line of `rllm rerank --records` is the record itself, with the row's id: read as {taskId: id, record: line}.
const TournamentSchema = z.object({
  taskId: z.string(),
  method: z.string(),
  chosenIndex: z.number().optional(),
  judgeCalls: z.number().optional(),
  budget: z.number().optional(),
  record: z
    .object({
      tieBreak: z.boolean(),
      comparisons: z.array(z.object({ slotA: z.number(), slotB: z.number(), ratingA: z.number().nullable(), ratingB: z.number().nullable(), parseError: z.boolean() })),
    })
    .optional(),
});

const lines = (file: string) => readFileSync(file, "utf8").split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line) as unknown);

/** Mean and standard error of per-task values. */
function byTask(values: readonly number[]): string {
  const n = values.length;
  const mean = values.reduce((sum, value) => sum + value, 0) / n;
  const variance = values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / Math.max(1, n - 1);
  return `${(100 * mean).toFixed(1)}% ± ${(100 * Math.sqrt(variance / n)).toFixed(1)} (n=${n})`;
}

type Attempts = { isCorrect: boolean }[];
type Tournament = z.infer<typeof TournamentSchema>;

/** An eval run folder: its attempts by task, and its tournaments when it was reranked. */
function readRunFolder(directory: string): { tasks: Map<string, Attempts>; tournaments: Tournament[] } {
  const episodes = lines(path.join(directory, "episodes.jsonl")).map((line) => EpisodeSchema.parse(line));
  const tasks = new Map<string, Attempts>();
  for (const episode of episodes.sort((a, b) => a.attempt - b.attempt)) {
    const list = tasks.get(episode.taskId) ?? [];
    list[episode.attempt] = { isCorrect: episode.score?.isCorrect === true };
    tasks.set(episode.taskId, list);
  }
  const file = path.join(directory, "tournaments.jsonl");
  return { tasks, tournaments: existsSync(file) ? lines(file).map((line) => TournamentSchema.parse(line)) : [] };
}

/** `rllm rerank` rows and the records its runs wrote. */
function readRerankFiles(rowsFile: string, recordFiles: readonly string[]): { tasks: Map<string, Attempts>; tournaments: Tournament[] } {
  const tasks = new Map(lines(rowsFile).map((line) => RowSchema.parse(line)).map((row) => [row.id, row.candidates] as const));
  const tournaments = recordFiles.flatMap((file) =>
    lines(file).map((line) => {
      const record = z.object({ id: z.string(), method: z.string(), budget: z.number(), chosenIndex: z.number(), judgeCalls: z.number() }).passthrough().parse(line);
      return TournamentSchema.parse({ taskId: record.id, method: record.method === "majority" ? record.method : `${record.method} B=${String(record.budget)}`, chosenIndex: record.chosenIndex, judgeCalls: record.judgeCalls, record: line });
    }),
  );
  return { tasks, tournaments };
}

function summarize(label: string, tasks: Map<string, Attempts>, tournaments: readonly Tournament[]): void {
  const passAt1 = [...tasks.values()].map((attempts) => attempts.filter((attempt) => attempt.isCorrect).length / attempts.length);
  const passAtK = [...tasks.values()].map((attempts) => (attempts.some((attempt) => attempt.isCorrect) ? 1 : 0));
  const k = Math.max(...[...tasks.values()].map((attempts) => attempts.length));
  console.log(`\n${label}: ${tasks.size} tasks × ${k}`);
  console.log(`  pass@1 ${byTask(passAt1)}; pass@${k} ${byTask(passAtK)}`);
  const latest = new Map<string, Tournament>();
  for (const line of tournaments) latest.set(`${line.method} ${line.taskId}`, line);
  for (const method of [...new Set(tournaments.map((line) => line.method))]) {
    const picked = [...latest.values()].filter((line) => line.method === method && line.chosenIndex !== undefined);
    const picks = picked.map((line) => (tasks.get(line.taskId)?.[line.chosenIndex!]?.isCorrect ? 1 : 0));
    const calls = picked.reduce((sum, line) => sum + (line.judgeCalls ?? 0), 0);
    const comparisons = picked.flatMap((line) => line.record?.comparisons ?? []);
    const parseErrors = comparisons.filter((comparison) => comparison.parseError).length;
    const tieBreaks = picked.filter((line) => line.record?.tieBreak).length;
    const accuracyByTask: number[] = [];
    let mixedVerdicts = 0;
    let readableMixed = 0;
    for (const line of picked) {
      const attempts = tasks.get(line.taskId)!;
      const mixed = (line.record?.comparisons ?? []).filter((comparison) => attempts[comparison.slotA]?.isCorrect !== attempts[comparison.slotB]?.isCorrect);
      if (mixed.length === 0) continue;
      mixedVerdicts += mixed.length;
      readableMixed += mixed.filter((comparison) => !comparison.parseError).length;
      const right = mixed.filter((comparison) => {
        if (comparison.parseError || comparison.ratingA === comparison.ratingB) return false;
        const aWins = comparison.ratingA! > comparison.ratingB!;
        return aWins === attempts[comparison.slotA]!.isCorrect;
      }).length;
      accuracyByTask.push(right / mixed.length);
    }
    console.log(
      `  ${method}: rerank@1 ${byTask(picks)}; judge calls ${calls} (${(calls / Math.max(1, picked.length)).toFixed(1)} per task), parse errors ${parseErrors}/${comparisons.length}, ` +
        `tie-break picks ${tieBreaks}/${picked.length}; judge accuracy on mixed pairs ${accuracyByTask.length > 0 ? byTask(accuracyByTask) : "no mixed pairs"} ` +
        `(${readableMixed} of ${mixedVerdicts} mixed verdicts readable)`,
    );
  }
}

const [first, ...rest] = process.argv.slice(2);
if (first === "--rows") {
  const [rowsFile, ...recordFiles] = rest;
  if (rowsFile === undefined) throw new Error("--rows needs the rows file, then the records files");
  const { tasks, tournaments } = readRerankFiles(rowsFile, recordFiles);
  summarize(rowsFile, tasks, tournaments);
} else {
  for (const directory of [first, ...rest].filter((argument) => argument !== undefined)) {
    const { tasks, tournaments } = readRunFolder(directory);
    summarize(directory, tasks, tournaments);
  }
}
