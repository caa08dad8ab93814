// One smoke test per `rllm` command: the real binary on the smallest real input, offline (the embedded tiny model
// stands in for an endpoint), checked by its exit code and one line of its output.
import { cpSync, mkdtempSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, spawnCli } from "../helpers/run-cli.js";

const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-smoke-"));
const file = (name: string, text: string) => {
  const target = path.join(directory, name);
  writeFileSync(target, text);
  return target;
};

/** The status of GET `url`. */
function statusOf(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get(url, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    }).on("error", reject);
  });
}

/** Starts a serving command, waits for the line naming its URL, checks /health, stops it with Ctrl-C; the exit code. */
async function serveAndStop(args: string[], announcement: RegExp): Promise<{ code: number | null; health: number }> {
  const child = spawnCli(args);
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  const origin = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = announcement.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("close", (code) => reject(new Error(`rllm ${args[0]} exited ${code} before serving:\n${output}`)));
  });
  try {
    const health = await statusOf(`${origin}/health`);
    child.kill("SIGINT");
    return { health, code: await exited };
  } finally {
    // Only acts when a check above threw and left the server running.
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
}

describe("rllm smoke tests", () => {
  it("eval: runs one arith task on the embedded model and prints the summary", async () => {
    const result = await runCli(["eval", "arith", "--limit", "1", "--out", path.join(directory, "eval-run")]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/tasks × attempts\s+1 × 1 \(1 scored, 0 unscored\)/);
  });

  it("grade: grades one math row and prints the accuracy", async () => {
    const input = file("rows.jsonl", `${JSON.stringify({ id: "a", response: "\\boxed{4}", ground_truth: "4" })}\n`);
    const result = await runCli(["grade", "--verifier", "math", "--input", input, "--output", path.join(directory, "verdicts.jsonl")]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("accuracy 100.0% (1/1 scored)");
  });

  it("dataset: lists the benchmarks by kind, each with its size, licence, grader and data", async () => {
    // A home of its own with one registered dataset: the list must not depend on the machine's cache.
    const home = mkdtempSync(path.join(directory, "home-"));
    const rows = file("own.jsonl", `${JSON.stringify({ id: "1", question: "1+1", ground_truth: "2" })}\n`);
    const registered = await runCli(["dataset", "register", "own", "--file", rows], { RLLM_HOME: home });
    expect(registered.code, registered.stderr).toBe(0);
    const result = await runCli(["dataset", "list"], { RLLM_HOME: home });
    expect(result.stdout).toContain("your datasets:");
    expect(result.code, result.stderr).toBe(0);
    for (const heading of ["math:", "code:", "multiple choice:", "question answering:", "agentic and tool use:"]) expect(result.stdout.split("\n")).toContain(heading);
    expect(result.stdout).toMatch(/^ {2}aime25 +30 problems · CC-BY-NC-SA-4\.0 · grader: math verifier, last \\boxed\{\} answer · not pulled \(hf:MathArena\/aime_2025\) · sample 5 rows$/m);
    expect(result.stdout).toMatch(/^ {2}gpqa-diamond +198 questions · .* · not pulled \(hf:Idavidrein\/gpqa, gated: HF_TOKEN\) · no sample$/m);
    // Every name starts in one column, and so does every fact line, past the longest name.
    const named = result.stdout.split("\n").filter((line) => /^ {2}\S/.test(line));
    expect(new Set(named.map((line) => /^ {2}\S+\s+/.exec(line)![0].length)).size).toBe(1);
  });

  it("eval --list: prints the same catalogue", async () => {
    const home = mkdtempSync(path.join(directory, "home-"));
    const [list, catalogue] = await Promise.all([runCli(["eval", "--list"], { RLLM_HOME: home }), runCli(["dataset", "list"], { RLLM_HOME: home })]);
    expect(list.code, list.stderr).toBe(0);
    expect(catalogue.stdout.startsWith(list.stdout)).toBe(true);
    expect(list.stdout).toMatch(/^ {2}mmlu-pro\s/m);
  });

  it("rerank: picks between two labelled candidates with the embedded model as judge", async () => {
    const candidates = { id: "r1", problem: "What is 2+2?", candidates: [{ text: "\\boxed{4}", isCorrect: true }, { text: "\\boxed{5}", isCorrect: false }] };
    const result = await runCli(["rerank", "--input", file("candidates.jsonl", `${JSON.stringify(candidates)}\n`)]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout.trim())).toMatchObject({ id: "r1", method: "v1", chosenIndex: expect.any(Number) });
  });

  it("simulate: prints a table of selection accuracy", async () => {
    const result = await runCli(["simulate", "tournament", "--trials", "20", "--n", "4", "--budgets", "1", "--methods", "v1,random"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^random\s+1×N\s/m);
  });

  it("serve: serves the tiny model, answers /health, stops on Ctrl-C", async () => {
    const { code, health } = await serveAndStop(["serve", "--model", "tiny", "--port", "0"], /tiny model at (http:\/\/[\d.:]+)\/v1/);
    expect(health).toBe(200);
    expect(code).toBe(0);
  });

  it("gateway: starts in front of an upstream, answers /health, stops on Ctrl-C", async () => {
    // The upstream is never called: /health answers without it.
    const { code, health } = await serveAndStop(["gateway", "--upstream", "http://127.0.0.1:9/v1", "--port", "0"], /rllm gateway on (http:\/\/[\d.:]+) →/);
    expect(health).toBe(200);
    expect(code).toBe(0);
  });

  it("train: runs two local steps on arith, with an ETA, validation progress and a last line naming the checkpoint and how to serve it", async () => {
    const config = { steps: 2, tasksPerStep: 2, groupSize: 2, sampling: { maxTokens: 8 }, validation: { tasks: 4, every: 1 }, concurrency: 4 };
    const out = path.join(directory, "train-run");
    const result = await runCli(["train", "arith", "--config", file("train.json", JSON.stringify(config)), "--out", out]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^step 1\/2 · reward .* · eta \d+(s|m\d\ds)$/m);
    expect(result.stderr).toMatch(/^validation after 0 steps: 1\/4 episodes$/m);
    const checkpoint = path.join(out, "checkpoints", "step-0002");
    expect(result.stdout.trim().split("\n").at(-1)).toBe(`train: 2/2 steps; checkpoint ${checkpoint}; serve it: rllm serve --model tiny --checkpoint ${checkpoint}`);
  });

  it("export: writes a run's episodes as training rows", async () => {
    const run = path.join(directory, "export-run");
    cpSync(new URL("../fixtures/runs/format-1", import.meta.url), run, { recursive: true });
    const result = await runCli(["export", run, "--format", "jsonl", "--out", path.join(directory, "rows.export.jsonl")]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^\d+ rows/);
  });
});
