import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { lastUserText, startScriptedServer, type ScriptedServer } from "../helpers/scripted-openai-server.js";
import { runCli, spawnCli } from "../helpers/run-cli.js";

const sample = readFileSync(new URL("../../benchmarks/qa/sample.jsonl", import.meta.url), "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line) as { id: string; question: string; ground_truth: string });
const answerOf = new Map(sample.map((row) => [row.question, row.ground_truth]));
// The scripted model knows the answer to even-indexed questions only: true accuracy is exactly 50%.
const knows = new Set(sample.filter((_, index) => index % 2 === 0).map((row) => row.question));

let server: ScriptedServer;
let mode: { rate429: number; delayMs: number; random: () => number } = { rate429: 0, delayMs: 0, random: Math.random };

beforeAll(async () => {
  server = await startScriptedServer((body) => {
    if (mode.random() < mode.rate429) return { status: 429, headers: { "retry-after": "0" } };
    const question = lastUserText(body);
    const answer = knows.has(question) ? answerOf.get(question) : "I do not know";
    return { text: `Let me think.\n\\boxed{${answer}}`, delayMs: mode.delayMs };
  });
});
afterAll(() => server.close());

const freshDirectory = () => path.join(mkdtempSync(path.join(os.tmpdir(), "rllm-eval-")), "run");
const readLines = (file: string) => readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line));

describe("rllm eval qa", () => {
  it("runs every task, writes episodes and a summary, and scores the known answers", async () => {
    mode = { rate429: 0, delayMs: 0, random: Math.random };
    const out = freshDirectory();
    const result = await runCli(["eval", "qa", "--base-url", server.url, "--model", "scripted", "--out", out, "-n", "2"]);
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(path.join(out, "summary.json"), "utf8"));
    expect(summary.counts.tasks).toBe(20);
    expect(summary.counts.episodes).toBe(40);
    expect(summary.errors).toEqual({ infra: 0, model: 0, infraRate: 0 });
    expect(summary.metrics.accuracy.mean).toBe(0.5);
    expect(summary.metrics.accuracy.ci95).toHaveLength(2);
    expect(summary.metrics.accuracy.stderr).toBeGreaterThan(0);
    expect(summary.metrics["pass@k"]).toEqual({ "1": 0.5, "2": 0.5 });
    const episodes = readLines(path.join(out, "episodes.jsonl"));
    expect(episodes).toHaveLength(40);
    const first = episodes[0];
    expect(Object.keys(first)).toEqual(expect.arrayContaining(["taskId", "attempt", "target", "score", "trajectories"]));
    expect(first.score).toMatchObject({ status: "scored", isCorrect: expect.any(Boolean) });
    expect(summary.formatVersion).toBe(2);
    expect(summary.counts.unscored).toBe(0);
    expect(first.trajectories[0].steps[0].completionTokenIds.length).toBeGreaterThan(0);
    expect(first.trajectories[0].steps[0].logprobs.length).toBe(first.trajectories[0].steps[0].completionTokenIds.length);
    expect(result.stdout).toMatch(/accuracy\s+50\.0% ± /);
    expect(result.stdout).toContain("20 × 2 (40 scored, 0 unscored)");
  });

  it("finishes every episode through a 30% storm of 429s without counting any wrong", async () => {
    let state = 12345;
    // A seeded generator, so the storm is the same on every run of the test.
    const random = () => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state / 2 ** 32;
    };
    mode = { rate429: 0.3, delayMs: 0, random };
    const out = freshDirectory();
    const requestsBefore = server.requests.length;
    const result = await runCli(["eval", "qa", "--base-url", server.url, "--model", "scripted", "--out", out, "-n", "3", "--concurrency", "8"]);
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(path.join(out, "summary.json"), "utf8"));
    expect(summary.counts.episodes).toBe(60);
    expect(summary.errors.infra).toBe(0);
    expect(summary.metrics.accuracy.mean).toBe(0.5);
    // The storm really happened: well over 60 requests were needed.
    expect(server.requests.length - requestsBefore).toBeGreaterThan(70);
  });

  it("resumes a run killed part-way so that every (task, attempt) pair is recorded exactly once", async () => {
    mode = { rate429: 0, delayMs: 60, random: Math.random };
    const out = freshDirectory();
    const args = ["eval", "qa", "--base-url", server.url, "--model", "scripted", "--out", out, "-n", "3", "--concurrency", "2"];
    const child = spawnCli(args);
    const episodesFile = path.join(out, "episodes.jsonl");
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (existsSync(episodesFile) && readFileSync(episodesFile, "utf8").split("\n").length > 12) {
          clearInterval(poll);
          child.kill("SIGKILL");
          resolve();
        }
      }, 20);
    });
    await new Promise((resolve) => child.on("close", resolve));
    const beforeResume = readLines(episodesFile).length;
    expect(beforeResume).toBeLessThan(60);
    const resumed = await runCli([...args, "--resume"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const ids = readLines(episodesFile).map((episode) => episode.id);
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
    const summary = JSON.parse(readFileSync(path.join(out, "summary.json"), "utf8"));
    expect(summary.counts.episodes).toBe(60);
    expect(summary.metrics.accuracy.mean).toBe(0.5);
  });

  it("refuses to resume with a different config and shows the difference", async () => {
    mode = { rate429: 0, delayMs: 0, random: Math.random };
    const out = freshDirectory();
    expect((await runCli(["eval", "qa", "--base-url", server.url, "--model", "scripted", "--out", out, "--limit", "2"])).code).toBe(0);
    const result = await runCli(["eval", "qa", "--base-url", server.url, "--model", "scripted", "--out", out, "--limit", "2", "--temperature", "0.7", "--resume"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("different config");
    expect(result.stderr).toMatch(/sampling: .*→ .*"temperature":0.7/);
  });

  it("exits 2 naming the file, line and field of malformed --data rows", async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-data-"));
    const data = path.join(directory, "rows.jsonl");
    writeFileSync(data, '{"id": "a", "question": "q", "ground_truth": "1"}\n{"id": "b", "question": 5, "ground_truth": "1"}\n');
    const result = await runCli(["eval", "qa", "--base-url", server.url, "--model", "scripted", "--data", data, "--out", path.join(directory, "run")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${data}:2: field "question"`);
  });

  it("exits 1 when accuracy falls under --fail-under, and 2 on a bad flag", async () => {
    mode = { rate429: 0, delayMs: 0, random: Math.random };
    const low = await runCli(["eval", "qa", "--base-url", server.url, "--model", "scripted", "--out", freshDirectory(), "--fail-under", "0.9"]);
    expect(low.code).toBe(1);
    expect(low.stderr).toContain("under --fail-under 0.9");
    const bad = await runCli(["eval", "qa", "--base-url", server.url, "--model", "scripted", "-n", "0"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--attempts");
  });
});

describe("rllm eval against a misconfigured endpoint", () => {
  it("stops at the first 401 with a hint instead of failing every episode", async () => {
    const denied = await startScriptedServer(() => ({ status: 401 }));
    try {
      const out = freshDirectory();
      const result = await runCli(["eval", "qa", "--base-url", denied.url, "--model", "m", "--out", out, "--concurrency", "2"]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("check the API key (--api-key-env)");
      expect(denied.requests.length).toBeLessThanOrEqual(2);
    } finally {
      await denied.close();
    }
  });
});

describe("rllm eval --cookbook <module path>", () => {
  it("loads a user's cookbook module and runs its flow and evaluator", async () => {
    mode = { rate429: 0, delayMs: 0, random: Math.random };
    const out = freshDirectory();
    const cookbook = new URL("../fixtures/user-cookbook.ts", import.meta.url).pathname;
    const result = await runCli(["eval", "qa", "--base-url", server.url, "--model", "scripted", "--out", out, "--cookbook", cookbook, "--limit", "4"]);
    expect(result.code, result.stderr).toBe(0);
    const episodes = readLines(path.join(out, "episodes.jsonl"));
    expect(episodes[0].trajectories[0].name).toBe("shouter");
    expect(episodes[0].trajectories[0].steps[0].output).toMatch(/^LET ME THINK/);
    const summary = JSON.parse(readFileSync(path.join(out, "summary.json"), "utf8"));
    expect(summary.metrics.signals.length).toBeGreaterThan(0);
  });

  it("exits 2 naming what is missing from a module that is not a cookbook", async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-cookbook-"));
    const module = path.join(directory, "bad.mjs");
    writeFileSync(module, "export default { name: 'bad', flow() {} };\n");
    const result = await runCli(["eval", "qa", "--base-url", server.url, "--model", "scripted", "--cookbook", module, "--out", path.join(directory, "run")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('field "evaluate"');
  });
});
