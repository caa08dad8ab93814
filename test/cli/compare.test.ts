// `rllm compare` and `rllm view` on run folders written here: the paired figures as printed, the refusal of runs of
// different benchmarks, and the usage errors.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";

const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-compare-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** A run folder of `benchmark` with one attempt per task, correct where `verdicts` says 1. */
function runFolder(name: string, benchmark: string, verdicts: number[]): string {
  const folder = path.join(directory, name);
  mkdirSync(folder);
  writeFileSync(path.join(folder, "config.json"), JSON.stringify({ formatVersion: 2, benchmark, cookbook: benchmark, model: name }));
  const episodes = verdicts.map((verdict, index) => ({
    id: `t${index}:0`,
    taskId: `t${index}`,
    attempt: 0,
    score: { value: verdict, isCorrect: verdict === 1, status: "scored", signals: {} },
  }));
  writeFileSync(path.join(folder, "episodes.jsonl"), episodes.map((episode) => JSON.stringify(episode)).join("\n") + "\n");
  return folder;
}

/** Adds a --rerank run's tournaments.jsonl: one `method` line per task, correct where `picks` says 1, with `calls` judge calls. */
function addTournaments(folder: string, method: string, picks: number[], calls: number[], earlier: string[] = []): void {
  const lines = picks.map((pick, index) => ({
    taskId: `t${index}`,
    method,
    budget: 2,
    chosenIndex: 0,
    chosenEpisodeId: `t${index}:0`,
    isCorrect: pick === 1,
    judgeCalls: calls[index],
    judgeTokens: 10 * calls[index]!,
    record: { chosenIndex: 0, tieBreak: false, scores: [1, 0], judgeCalls: calls[index], rounds: 1, comparisons: [], points: [], method, budget: 2, candidateCount: 2 },
    judgeTrajectory: { name: "judge", steps: [], reward: null, output: null, signals: {}, info: {} },
  }));
  writeFileSync(path.join(folder, "tournaments.jsonl"), [...earlier, ...lines.map((line) => JSON.stringify(line))].join("\n") + "\n");
}

// A = [0, 0, 1, 1, 0], B = [1, 1, 1, 0, 1]: d = [1, 1, 0, −1, 1], mean +0.4, SE = √(0.8/5) = 0.4,
// 95% CI 0.4 ± 1.96 · 0.4 = −0.384 to +1.184; discordant 1 (A alone) vs 3 (B alone): p = 2 · 5/16 = 0.625.
const runA = runFolder("a", "math", [0, 0, 1, 1, 0]);
const runB = runFolder("b", "math", [1, 1, 1, 0, 1]);

describe("rllm compare", () => {
  it("prints the paired difference, its SE and CI, McNemar's exact p and the tasks each run alone solved", async () => {
    const page = path.join(directory, "compare.html");
    const result = await runCli(["compare", runA, runB, "--html", page]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/shared tasks\s+5\n/);
    expect(result.stdout).toMatch(/accuracy A\s+40\.0%\n/);
    expect(result.stdout).toMatch(/accuracy B\s+80\.0%\n/);
    expect(result.stdout).toContain("B − A             +40.0 ± 40.0 points (paired SE), 95% CI -38.4 to +118.4");
    expect(result.stdout).toContain("1 solved by A alone, 3 by B alone: p = 0.625");
    expect(result.stdout).toMatch(/solved by A alone t3\n/);
    expect(result.stdout).toMatch(/solved by B alone t0, t1, t4/);
    const data = /<script type="application\/octet-stream" id="report-data">([^<]*)<\/script>/.exec(readFileSync(page, "utf8"))![1]!;
    const payload = JSON.parse(gunzipSync(Buffer.from(data, "base64")).toString("utf8"));
    expect(payload.kind).toBe("compare");
    expect(payload.compare.comparison).toMatchObject({ tasks: 5, solvedOnlyByA: ["t3"], solvedOnlyByB: ["t0", "t1", "t4"] });
    // No --rerank: no rerank rows.
    expect(payload.compare.rerank).toEqual([]);
    expect(result.stdout).not.toContain("rerank@1");
  });

  it("pairs the rerank@1 and judge calls per task of two --rerank runs, method by method", async () => {
    const rerankedA = runFolder("reranked-a", "arith", [0, 0, 1, 1, 0]);
    const rerankedB = runFolder("reranked-b", "arith", [0, 0, 1, 1, 0]);
    // A's t0 was reranked twice (a resume): its last line counts.
    const stale = JSON.stringify({ taskId: "t0", method: "v1", budget: 2, error: "judge endpoint gave up" });
    addTournaments(rerankedA, "v1", [1, 0, 1, 1, 0], [16, 16, 16, 16, 16], [stale]);
    addTournaments(rerankedB, "v1", [1, 1, 1, 1, 1], [6, 4, 5, 6, 4]);
    const result = await runCli(["compare", rerankedA, rerankedB]);
    expect(result.code, result.stderr).toBe(0);
    // Pass@1 is equal; the tournaments are not. rerank@1 d = [0, 1, 0, 0, 1]: +40 ± 24.5 points; judge calls d = [−10, −12, −11, −10, −12]: −11 ± 1/√5 = 0.45.
    expect(result.stdout).toContain("B − A             +0.0 ± 0.0 points");
    expect(result.stdout).toContain("rerank@1 v1       A 60.0%, B 100.0% over 5 tasks: B − A +40.0 ± 24.5 points (paired SE), 95% CI -8.0 to +88.0; McNemar 0 vs 2: p = 0.500");
    expect(result.stdout).toContain("judge calls v1    A 16.0, B 5.0 per task: B − A -11.0 ± 0.4 (paired SE), 95% CI -11.9 to -10.1");
  });

  it("refuses runs of different benchmarks unless --force", async () => {
    const other = runFolder("other", "arith", [1, 1, 1, 1, 1]);
    const refused = await runCli(["compare", runA, other]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("ran benchmark math");
    expect(refused.stderr).toContain("--force");
    const forced = await runCli(["compare", runA, other, "--force"]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain("0 solved by A alone, 3 by B alone");
  });
});

describe("rllm view", () => {
  it("writes report.html into the run folder and says how much of it is code and data", async () => {
    const result = await runCli(["view", runA]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^report → .*report\.html \(\d+ KB: \d+ KB code \+ \d+ KB data; 5 episodes\)/);
  });

  it("exits 2 naming a folder that holds no run", async () => {
    const empty = path.join(directory, "empty");
    mkdirSync(empty);
    const result = await runCli(["view", empty, "--out", path.join(directory, "x.html")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("neither episodes.jsonl nor metrics.jsonl");
  });

  it("words a missing run folder the same way in view and compare", async () => {
    const missing = path.join(directory, "missing");
    const view = await runCli(["view", missing]);
    const compare = await runCli(["compare", missing, runA]);
    expect([view.code, compare.code]).toEqual([2, 2]);
    expect(view.stderr.trim()).toBe(`rllm: ${missing}: no such run directory`);
    expect(compare.stderr.trim()).toBe(view.stderr.trim());
  });
});
