/**
 * The figures of docs/results/2026-12-real-model.md from `rllm eval -n 8 [--rerank …]` run folders: pass@1 (mean over
 * the attempts), pass@8 and majority@8 over the answers the math verifier extracted (the arith cookbook's own
 * extractAnswer reads only \boxed{}, which this model does not write), rerank@1 of every method with its judge calls,
 * parse errors and tie-breaks (also for a method the parse-error rule failed: its picks are then mostly seeded
 * tie-breaks), and the judge's accuracy on mixed pairs (one correct candidate, one not: right when the correct one got
 * the strictly higher rating; a tie or an unreadable reply is not right). Standard errors are by task.
 * `node --import tsx test/perf/real-model/summarize-run.ts <run-dir>...`
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { createRng, randomInt } from "../../../src/core/random.js";

const EpisodeSchema = z.object({ taskId: z.string(), attempt: z.number(), score: z.object({ isCorrect: z.boolean().optional(), answer: z.string().optional() }).nullish() });
// A line of tournaments.jsonl: a task's pick by one method, with its record of every verdict (a failed rerank has none).
const TournamentSchema = z.object({
  taskId: z.string(),
  method: z.string(),
  chosenIndex: z.number().optional(),
  judgeCalls: z.number().optional(),
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

for (const directory of process.argv.slice(2)) {
  const episodes = lines(path.join(directory, "episodes.jsonl")).map((line) => EpisodeSchema.parse(line));
  const tasks = new Map<string, { isCorrect: boolean; answer?: string }[]>();
  for (const episode of episodes.sort((a, b) => a.attempt - b.attempt)) {
    const list = tasks.get(episode.taskId) ?? [];
    list[episode.attempt] = { isCorrect: episode.score?.isCorrect === true, ...(episode.score?.answer !== undefined ? { answer: episode.score.answer } : {}) };
    tasks.set(episode.taskId, list);
  }
  const rng = createRng(0);
  const passAt1: number[] = [];
  const passAtK: number[] = [];
  const majority: number[] = [];
  for (const attempts of tasks.values()) {
    passAt1.push(attempts.filter((attempt) => attempt.isCorrect).length / attempts.length);
    passAtK.push(attempts.some((attempt) => attempt.isCorrect) ? 1 : 0);
    // Majority over the verifier's extracted answers; a tie between answers is drawn with a seeded rng.
    const votes = new Map<string, number>();
    for (const attempt of attempts) if (attempt.answer !== undefined) votes.set(attempt.answer, (votes.get(attempt.answer) ?? 0) + 1);
    const top = Math.max(0, ...votes.values());
    const leaders = [...votes].filter(([, count]) => count === top).map(([answer]) => answer);
    const pick = leaders.length > 0 ? leaders[randomInt(rng, leaders.length)] : undefined;
    majority.push(pick !== undefined && attempts.some((attempt) => attempt.answer === pick && attempt.isCorrect) ? 1 : 0);
  }
  const k = Math.max(...[...tasks.values()].map((attempts) => attempts.length));
  console.log(`\n${directory}: ${tasks.size} tasks × ${k}`);
  console.log(`  pass@1 ${byTask(passAt1)}; pass@${k} ${byTask(passAtK)}; majority@${k} ${byTask(majority)}`);
  let tournaments: z.infer<typeof TournamentSchema>[] = [];
  try {
    tournaments = lines(path.join(directory, "tournaments.jsonl")).map((line) => TournamentSchema.parse(line));
  } catch {
    continue;
  }
  const latest = new Map<string, z.infer<typeof TournamentSchema>>();
  for (const line of tournaments) latest.set(`${line.method} ${line.taskId}`, line);
  for (const method of [...new Set(tournaments.map((line) => line.method))]) {
    const lines = [...latest.values()].filter((line) => line.method === method && line.chosenIndex !== undefined);
    const picks = lines.map((line) => (tasks.get(line.taskId)?.[line.chosenIndex!]?.isCorrect ? 1 : 0));
    const calls = lines.reduce((sum, line) => sum + (line.judgeCalls ?? 0), 0);
    const comparisons = lines.flatMap((line) => line.record?.comparisons ?? []);
    const parseErrors = comparisons.filter((comparison) => comparison.parseError).length;
    const tieBreaks = lines.filter((line) => line.record?.tieBreak).length;
    const accuracyByTask: number[] = [];
    let mixedVerdicts = 0;
    let readableMixed = 0;
    for (const line of lines) {
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
      `  ${method}: rerank@1 ${byTask(picks)}; judge calls ${calls} (${(calls / Math.max(1, lines.length)).toFixed(1)} per task), parse errors ${parseErrors}/${comparisons.length}, ` +
        `tie-break picks ${tieBreaks}/${lines.length}; judge accuracy on mixed pairs ${accuracyByTask.length > 0 ? byTask(accuracyByTask) : "no mixed pairs"} ` +
        `(${readableMixed} of ${mixedVerdicts} mixed verdicts readable)`,
    );
  }
}
