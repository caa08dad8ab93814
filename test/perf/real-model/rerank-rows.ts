/**
 * An `rllm eval -n 8` run's candidates as `rllm rerank` rows, so that the judge can sample with its own settings
 * (`rllm eval --rerank` judges with the run's sampling: here 32 tokens at temperature 0.7, with logprobs on llama.cpp's
 * slow whole-distribution path). Each row: the task's question, and every attempt's reply (in attempt order) with the
 * verifier's isCorrect and extracted answer (adaptive-duel's answer groups; majority vote).
 * `node --import tsx test/perf/real-model/rerank-rows.ts <run-dir> > rows.jsonl` (rows in task-id order)
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

const EpisodeSchema = z.object({
  taskId: z.string(),
  attempt: z.number().int().nonnegative(),
  trajectories: z.array(z.object({ steps: z.array(z.object({ input: z.array(z.object({ role: z.string(), content: z.string() })), output: z.string() })).min(1) })).min(1),
  score: z.object({ isCorrect: z.boolean().optional(), answer: z.string().optional() }).nullish(),
});

const file = path.join(process.argv[2] ?? "", "episodes.jsonl");
const tasks = new Map<string, { problem: string; candidates: { text: string; isCorrect: boolean; answer?: string }[] }>();
for (const [index, line] of readFileSync(file, "utf8").split("\n").entries()) {
  if (line.trim() === "") continue;
  const parsed = EpisodeSchema.safeParse(JSON.parse(line));
  if (!parsed.success) throw new Error(`${file}:${index + 1}: ${parsed.error.message}`);
  const episode = parsed.data;
  const step = episode.trajectories[0]!.steps[0]!;
  const question = [...step.input].reverse().find((message) => message.role === "user")?.content ?? "";
  const task = tasks.get(episode.taskId) ?? { problem: question, candidates: [] };
  task.candidates[episode.attempt] = {
    text: episode.trajectories[0]!.steps.at(-1)!.output,
    isCorrect: episode.score?.isCorrect === true,
    ...(episode.score?.answer !== undefined ? { answer: episode.score.answer } : {}),
  };
  tasks.set(episode.taskId, task);
}
// In task-id order, so that `head -n K` takes the same tasks whatever order the episodes finished in.
for (const [id, task] of [...tasks].sort(([a], [b]) => a.localeCompare(b))) process.stdout.write(`${JSON.stringify({ id, problem: task.problem, candidates: task.candidates.filter(Boolean) })}\n`);
