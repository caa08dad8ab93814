/**
 * `rllm eval <suite> --limit 3` for every paper suite, offline on its bundled sample against a scripted
 * OpenAI-compatible server that answers each task with its reference answer or solution; and `rllm eval aime25 -n 16
 * --rerank adaptive-duel` end to end, the server judging pairs by their final answers.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRng } from "../../../src/core/random.js";
import { runCli } from "../../helpers/run-cli.js";
import { lastUserText, startScriptedServer, stringHash, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { pythonEnv } from "../../helpers/python-env.js";

type SampleRow = { id: string; question: string; ground_truth?: string; reference_solution?: string };
const sampleOf = (name: string): SampleRow[] =>
  readFileSync(new URL(`../../../benchmarks/${name}/sample.jsonl`, import.meta.url), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as SampleRow);

const suites = ["aime24", "aime25", "hmmt25", "math500", "gsm8k", "humaneval", "humanevalplus", "mbppplus", "livecodebench", "mmlu-pro"];
const rows = suites.flatMap((name) => sampleOf(name).map((row) => ({ ...row, suite: name })));

/** The reference reply to a prompt: the boxed answer, GSM8K's final-answer line, a fenced solution or the letter. */
function referenceReply(prompt: string): string {
  const row = rows.find((candidate) => prompt.includes(candidate.question.trim().slice(0, 200)));
  if (!row) return "I do not know.";
  if (row.reference_solution) return `Here is the program:\n\`\`\`python\n${row.reference_solution}\n\`\`\``;
  if (row.suite === "gsm8k") return `Step by step.\nThe final answer is ${row.ground_truth}`;
  if (row.suite === "mmlu-pro") return `Let's think step by step. The answer is (${row.ground_truth}).`;
  return `Working.\n\\boxed{${row.ground_truth}}`;
}

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer((body) => {
    const prompt = lastUserText(body);
    // A judge prompt (adaptive-duel, V1): prefer the solution whose boxed answer is the reference.
    const pair = /## Solution A\n([\s\S]*?)\n\n## Solution B\n([\s\S]*?)\n\nReason step by step/.exec(prompt);
    if (pair) {
      const row = rows.find((candidate) => prompt.includes(candidate.question.trim().slice(0, 200)));
      const correctA = row !== undefined && pair[1]!.includes(`{${row.ground_truth}}`);
      const correctB = row !== undefined && pair[2]!.includes(`{${row.ground_truth}}`);
      if (correctA === correctB) return { text: "<rating_A>5</rating_A><rating_B>5</rating_B>" };
      return { text: correctA ? "<rating_A>9</rating_A><rating_B>2</rating_B>" : "<rating_A>2</rating_A><rating_B>9</rating_B>" };
    }
    // Sampled at temperature 0.7 (the reranked run), an aime25 attempt is right a third of the time, by its seed, so
    // reranking has something to choose; a reply is a function of the request alone, whatever order calls arrive in.
    const row = rows.find((candidate) => candidate.suite === "aime25" && prompt.includes(candidate.question.trim().slice(0, 200)));
    if (row && body.temperature === 0.7) {
      const right = createRng(body.seed ?? stringHash(prompt))() < 1 / 3;
      return { text: `Working.\n\\boxed{${right ? row.ground_truth : "1"}}` };
    }
    return { text: referenceReply(prompt) };
  });
});
afterAll(() => server.close());

const out = () => path.join(mkdtempSync(path.join(os.tmpdir(), "rllm-suite-eval-")), "run");
// EvalPlus's tests import numpy: the pinned "parity" environment's Python has it (see bundled-samples.test.ts).
const environment = () => ({ RLLM_PYTHON: pythonEnv("parity") });

describe("rllm eval <suite> --limit 3 on the bundled samples", () => {
  it.each(suites)("%s: every reference reply scores 1", async (name) => {
    const directory = out();
    const result = await runCli(["eval", name, "--base-url", server.url, "--model", "scripted", "--limit", "3", "--concurrency", "2", "--out", directory], environment());
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(path.join(directory, "summary.json"), "utf8"));
    expect(summary.metrics.accuracy, JSON.stringify(summary.metrics)).toMatchObject({ mean: 1, n: Math.min(3, sampleOf(name).length) });
  });

  it("gpqa-diamond: exits 2 saying it ships no rows and how to pull them", async () => {
    const result = await runCli(["eval", "gpqa-diamond", "--base-url", server.url, "--model", "scripted", "--limit", "3", "--out", out()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/gpqa-diamond ships no rows .*HF_TOKEN and run `rllm dataset pull gpqa-diamond`/);
  });
});

describe("rllm eval aime25 -n 16 --rerank adaptive-duel", () => {
  it("samples 16 attempts a task, reranks them with adaptive-duel and reports rerank@1 at least pass@1", async () => {
    const directory = out();
    const result = await runCli(
      ["eval", "aime25", "--base-url", server.url, "--model", "scripted", "-n", "16", "--rerank", "adaptive-duel", "--limit", "3", "--temperature", "0.7", "--out", directory],
    );
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(path.join(directory, "summary.json"), "utf8"));
    expect(summary.metrics["pass@k"]["16"]).toBe(1);
    expect(summary.metrics["rerank@1"]["adaptive-duel"]).toBeGreaterThanOrEqual(summary.metrics["pass@k"]["1"]);
    expect(summary.metrics.judgeCalls["adaptive-duel"]).toBeGreaterThan(0);
    expect(result.stdout).toMatch(/rerank@1 \[adaptive-duel\]/);
  });
});
