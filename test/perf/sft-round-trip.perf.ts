/**
 * The acceptance experiments of docs/sft.md, end to end through the real binary on the embedded tiny model:
 * (a) rejection-sampling fine-tune: eval the train split with 8 attempts → curate "0 < avg < 1" correct answers →
 *     rllm sft → pass@1 on the test split, paired by task against the shipped checkpoint;
 * (b) judge fine-tune: eval with --rerank v1 → curate judge verdicts whose winner was truly correct → rllm sft →
 *     the judge's pairwise accuracy on mixed pairs of the test split (held out), paired by pair.
 * Both models are served by `rllm serve --model tiny` and evaluated with the same seeds. Takes tens of minutes.
 * `npm run bench -- sft-round-trip`; SFT_WORK=dir keeps (and reuses) the steps' outputs; SFT_TRAIN_TASKS, SFT_JUDGE_TASKS,
 * SFT_LR, SFT_EPOCHS, SFT_JUDGE_EPOCHS, SFT_BATCH change the settings.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readEpisodes } from "../../src/runs/episode-log.js";
import { episodeAnswer } from "../../src/core/episode-answer.js";
import { createRng } from "../../src/core/random.js";
import { createOpenAiClient } from "../../src/llm/openai-client.js";
import { cookbookJudgeKind } from "../../src/tournament/cookbook-judge-kind.js";
import { createLlmJudge } from "../../src/tournament/llm-judge.js";
import { isPairJudgedCorrectly } from "../../src/training/joint-reward.js";
import { pairedGain } from "../../src/training/loop/paired-gain.js";
import { arithTasks } from "../../benchmarks/arith/arith-tasks.js";
import type { Episode } from "../../src/core/episode.js";

const bin = fileURLToPath(new URL("../../bin/rllm.js", import.meta.url));
const work = process.env.SFT_WORK ?? mkdtempSync(path.join(os.tmpdir(), "rllm-sft-round-trip-"));
mkdirSync(work, { recursive: true });
const environment = { ...process.env, RLLM_HOME: path.join(work, "home") };
const settings = {
  trainTasks: process.env.SFT_TRAIN_TASKS ?? "2000",
  judgeTasks: process.env.SFT_JUDGE_TASKS ?? "150",
  lr: process.env.SFT_LR ?? "2e-4",
  epochs: process.env.SFT_EPOCHS ?? "1",
  // The judge data is ~15× smaller (a few hundred verdicts), so it takes more passes.
  judgeEpochs: process.env.SFT_JUDGE_EPOCHS ?? "3",
  batch: process.env.SFT_BATCH ?? "32",
};
const at = (name: string) => path.join(work, name);

/** Runs one rllm command (skipped when `output` exists already), printing it and its wall time. */
function rllm(args: string[], output?: string): void {
  const shown = `rllm ${args.join(" ")}`;
  if (output && existsSync(output)) {
    console.log(`(kept) ${shown}`);
    return;
  }
  const started = performance.now();
  const result = spawnSync(process.execPath, [bin, ...args], { env: environment, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
  console.log(`${shown}   # ${((performance.now() - started) / 1000).toFixed(0)} s`);
  if (result.status !== 0) throw new Error(`${shown} exited ${result.status}:\n${result.stderr.slice(-2000)}`);
}

/** Serves a checkpoint (the shipped one when absent) on a free port while `use` runs. */
async function serving<T>(checkpoint: string | undefined, use: (baseUrl: string) => Promise<T>): Promise<T> {
  const child = spawn(process.execPath, [bin, "serve", "--model", "tiny", "--port", "0", ...(checkpoint ? ["--checkpoint", checkpoint] : [])], { env: environment, stdio: ["ignore", "ignore", "pipe"] });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let text = "";
    child.stderr!.on("data", (chunk) => {
      text += chunk;
      const match = /tiny model at (\S+\/v1)/.exec(text);
      if (match) resolve(match[1]!);
    });
    child.on("exit", (code) => reject(new Error(`rllm serve exited ${code}: ${text}`)));
  });
  try {
    return await use(baseUrl);
  } finally {
    child.kill();
  }
}

/** Each task's pass rate over its attempts, keyed by task. */
function passRates(episodes: readonly Episode[]): Map<string, number> {
  const byTask = new Map<string, boolean[]>();
  for (const episode of episodes) byTask.set(episode.taskId, [...(byTask.get(episode.taskId) ?? []), episode.score.isCorrect]);
  return new Map([...byTask].map(([task, outcomes]) => [task, outcomes.filter(Boolean).length / outcomes.length]));
}

const percent = (value: number) => `${(100 * value).toFixed(1)}%`;
const describeGain = (before: number[], after: number[]) => {
  const gain = pairedGain(before, after);
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  return `${percent(mean(before))} → ${percent(mean(after))}: gain ${(100 * gain.mean).toFixed(2)} ± ${(100 * gain.stderr).toFixed(2)} points (paired SE, ${gain.tasks} units; ${(gain.mean / gain.stderr).toFixed(1)} SE)`;
};

async function testPassRates(name: string, checkpoint: string | undefined): Promise<Map<string, number>> {
  const out = at(name);
  await serving(checkpoint, async (baseUrl) => rllm(["eval", "arith", "-n", "8", "--base-url", baseUrl, "--model", "tiny", "--out", out], out));
  return passRates(readEpisodes(path.join(out, "episodes.jsonl")));
}

function lastCheckpoint(sftOut: string): string {
  const state = JSON.parse(readFileSync(path.join(sftOut, "state.json"), "utf8")) as { checkpoint: string };
  // state.json names the checkpoint relative to its run folder (so the folder can move).
  return path.resolve(sftOut, state.checkpoint);
}

const sftFlags = (epochs: string) => ["--backend", "local", "--lr", settings.lr, "--epochs", epochs, "--batch-size", settings.batch, "--val-fraction", "0.1", "--val-every", "50", "--save-every", "0"];
const started = performance.now();
console.log(`work: ${work}; settings ${JSON.stringify(settings)}`);

// (a) Rejection-sampling fine-tune of the solver.
rllm(["eval", "arith", "--split", "train", "-n", "8", "--limit", settings.trainTasks, "--out", at("train-eval")], at("train-eval"));
rllm(["dataset", "from-eval", at("train-eval"), "--name", "arith-rft", "--filter", "0 < avg < 1", "--select", "correct"], path.join(work, "home", "datasets", "arith-rft"));
rllm(["sft", "arith-rft", ...sftFlags(settings.epochs), "--out", at("sft-solver")], at("sft-solver"));
const before = await testPassRates("test-base", undefined);
const after = await testPassRates("test-sft", lastCheckpoint(at("sft-solver")));
const tasks = [...before.keys()];
console.log(`(a) test pass@1 ${describeGain(tasks.map((task) => before.get(task)!), tasks.map((task) => after.get(task)!))}`);

// (b) Judge fine-tune from tournament verdicts.
rllm(["eval", "arith", "--split", "train", "-n", "8", "--limit", settings.judgeTasks, "--rerank", "v1", "--out", at("judge-eval")], at("judge-eval"));
rllm(["dataset", "from-eval", at("judge-eval"), "--name", "arith-judge", "--trajectory", "judge"], path.join(work, "home", "datasets", "arith-judge"));
rllm(["sft", "arith-judge", ...sftFlags(settings.judgeEpochs), "--out", at("sft-judge")], at("sft-judge"));
// Held-out pairs: up to 4 mixed (one right, one wrong) pairs per test task from the base model's test answers, slots shuffled.
const random = createRng(7);
const testEpisodes = readEpisodes(path.join(at("test-base"), "episodes.jsonl"));
const pairs = arithTasks("test").flatMap((task) => {
  const attempts = testEpisodes.filter((episode) => episode.taskId === task.id);
  const right = attempts.filter((episode) => episode.score.isCorrect);
  const wrong = attempts.filter((episode) => !episode.score.isCorrect);
  return Array.from({ length: Math.min(4, right.length, wrong.length) }, (_, index) => {
    const swap = random() < 0.5;
    const [a, b] = swap ? [wrong[index]!, right[index]!] : [right[index]!, wrong[index]!];
    return { taskId: task.id, problem: String(task.instruction), a: episodeAnswer(a), b: episodeAnswer(b), isCorrectA: !swap };
  });
});
// Each pair judged 4 times (seeded), so a pair's score is its share of right verdicts.
const judgeShares = (checkpoint: string | undefined) =>
  serving(checkpoint, async (baseUrl) => {
    const judge = createLlmJudge({ client: createOpenAiClient({ baseUrl, model: "tiny" }), kind: cookbookJudgeKind({}), seed: 11, concurrency: 8 });
    return Promise.all(
      pairs.map(async (pair) => {
        let right = 0;
        for (let sample = 0; sample < 4; sample++) {
          const judgement = await judge.compare(pair.problem, pair.a, pair.b);
          const ratings = judgement.parseError ? null : { ratingA: judgement.ratingA!, ratingB: judgement.ratingB! };
          if (isPairJudgedCorrectly(ratings, pair.isCorrectA, !pair.isCorrectA)) right += 1;
        }
        return right / 4;
      }),
    );
  });
const judgeBefore = await judgeShares(undefined);
const judgeAfter = await judgeShares(lastCheckpoint(at("sft-judge")));
// Pairs of one task are not independent: the gain is paired by task, each task's pairs averaged (clustered SE).
const byTask = (shares: number[]) => {
  const grouped = new Map<string, number[]>();
  for (const [index, pair] of pairs.entries()) grouped.set(pair.taskId, [...(grouped.get(pair.taskId) ?? []), shares[index]!]);
  return [...grouped.values()].map((values) => values.reduce((sum, value) => sum + value, 0) / values.length);
};
console.log(`(b) judge pairwise accuracy on ${pairs.length} held-out pairs, by task ${describeGain(byTask(judgeBefore), byTask(judgeAfter))}`);
console.log(`wall time ${((performance.now() - started) / 1000).toFixed(0)} s`);
