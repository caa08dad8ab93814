import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatSummary } from "../../src/cli/format-summary.js";
import type { Cookbook } from "../../src/core/cookbook.js";
import { scored } from "../../src/core/score.js";
import { openRunDirectory, type RunPaths } from "../../src/runs/run-directory.js";
import { runEval, type EvalRunResult } from "../../src/engine/run-eval.js";
import { singleTurnFlow } from "../../src/engine/single-turn-flow.js";
import { createOpenAiClient } from "../../src/llm/openai-client.js";
import { TournamentLineSchema, createEvalReranker, judgeUsageOf } from "../../src/tournament/eval-reranker.js";
import { lastUserText, startScriptedServer, stringHash, type RecordedRequest, type ScriptedServer } from "../helpers/scripted-openai-server.js";
import { openRunResources } from "../../src/sandbox/run-resources.js";

// Candidates "42" or "17" by seed; the judge prefers 42 and reports 30 of its prompt tokens as served from the
// provider's prompt cache. Every reply is a function of the request, so reruns and resumes see the same tokens.
const isJudgeRequest = (body: Record<string, any>) => lastUserText(body).includes("## Solution A");
let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer((body) => {
    const prompt = lastUserText(body);
    const pair = /## Solution A\n([\s\S]*?)\n\n## Solution B\n([\s\S]*?)\n\nReason step by step/.exec(prompt);
    if (!pair) return { text: `The answer is ${stringHash(`${body.seed}`) % 2 === 0 ? 42 : 17}.` };
    const aWins = pair[1]!.includes("42") || !pair[2]!.includes("42");
    return { text: `<rating_A>${aWins ? 8 : 3}</rating_A><rating_B>${aWins ? 3 : 8}</rating_B>`, cachedPromptTokens: 30 };
  });
});
afterAll(() => server.close());

const tasks = ["a", "b", "c"].map((id) => ({ id, instruction: `Question ${id}: what is 6 times 7?`, metadata: {} }));
const cookbook: Cookbook = {
  name: "test",
  description: "test",
  flow: singleTurnFlow((task) => [{ role: "user", content: task.instruction as string }]),
  evaluate: (_, episode) => {
    const isCorrect = String(episode.trajectories[0]!.output).includes("42");
    return scored(isCorrect ? 1 : 0, isCorrect);
  },
};
const attempts = 4;
const price = { input: 1000, output: 2000, cachedInput: 250 };

const newRun = (): RunPaths => openRunDirectory(path.join(mkdtempSync(path.join(os.tmpdir(), "rllm-rerank-cost-")), "run"), { test: true }, false);

/** One `rllm eval --rerank v1 --prices …` invocation, optionally under --max-cost. */
async function evaluate(paths: RunPaths, maxCost?: number): Promise<EvalRunResult> {
  const client = createOpenAiClient({ baseUrl: server.url, model: "scripted", retryPolicy: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 } });
  const reranker = createEvalReranker({ methods: ["v1"], budget: 2, client, judgeKind: "math", seed: 1, file: path.join(paths.directory, "tournaments.jsonl"), price });
  try {
    return await runEval({
      tasks,
      cookbook,
      client,
      resources: openRunResources(),
      sampling: {},
      seed: 1,
      attempts,
      concurrency: 1,
      timeoutMs: 60_000,
      paths,
      signal: new AbortController().signal,
      price,
      ...(maxCost !== undefined ? { maxCost } : {}),
      onTaskComplete: reranker.onTaskComplete,
      extendSummary: reranker.extendSummary,
      otherSpend: reranker.spent,
    });
  } finally {
    reranker.close();
  }
}

/** Dollars of the recorded requests, by hand: fresh prompt tokens at input, cached ones at cachedInput, completion at output. */
const handCost = (requests: readonly RecordedRequest[]) =>
  requests.reduce((total, { usage }) => total + ((usage!.promptTokens - usage!.cachedPromptTokens) * price.input + usage!.cachedPromptTokens * price.cachedInput + usage!.completionTokens * price.output) / 1e6, 0);

describe("the cost of --rerank judge calls", () => {
  it("prices every judge call (cached prompt tokens at the cached rate) into cost.total, cost.byRole.judge and rerank.v1", async () => {
    const before = server.requests.length;
    const result = await evaluate(newRun());
    const requests = server.requests.slice(before);
    const judge = requests.filter((request) => isJudgeRequest(request.body));
    const solver = requests.filter((request) => !isJudgeRequest(request.body));
    expect(judge.length).toBeGreaterThan(0);
    const { cost, rerank } = result.summary;
    expect(cost!.byRole.judge).toBeCloseTo(handCost(judge), 12);
    expect(cost!.byRole.solver).toBeCloseTo(handCost(solver), 12);
    expect(cost!.total).toBeCloseTo(handCost(requests), 12);
    expect(cost!.perEpisode).toBeCloseTo(handCost(solver) / (tasks.length * attempts), 12);
    expect(rerank!.v1!.judgeCost).toBeCloseTo(handCost(judge), 12);
    expect(rerank!.v1!.judgeUsage).toEqual({
      promptTokens: judge.reduce((sum, request) => sum + request.usage!.promptTokens, 0),
      completionTokens: judge.reduce((sum, request) => sum + request.usage!.completionTokens, 0),
      cachedPromptTokens: 30 * judge.length,
    });
    expect(formatSummary(result.summary)).toContain(`$${cost!.total.toFixed(4)} ($${cost!.perEpisode.toFixed(6)} per episode, $${cost!.byRole.judge!.toFixed(4)} of it judge calls)`);
  });

  it("reads a tournament line written before judgeUsage existed, summing its judge calls' tokens", async () => {
    const paths = newRun();
    await evaluate(paths);
    const [first] = readFileSync(path.join(paths.directory, "tournaments.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
    const { judgeUsage, ...older } = first;
    const parsed = TournamentLineSchema.parse(older);
    expect(parsed.judgeUsage).toBeUndefined();
    expect(judgeUsageOf(parsed)).toEqual(judgeUsage);
  });

  it("counts judge calls against --max-cost, and resumes to the same total as an uninterrupted run", async () => {
    const reference = newRun();
    const uninterrupted = await evaluate(reference);
    const taskA = uninterrupted.episodes.filter((episode) => episode.taskId === "a");
    const solverA = taskA.reduce((sum, episode) => sum + (episode.usage.promptTokens * price.input + episode.usage.completionTokens * price.output) / 1e6, 0);
    const lineA = JSON.parse(readFileSync(path.join(reference.directory, "tournaments.jsonl"), "utf8").split("\n")[0]!);
    expect(lineA.taskId).toBe("a");
    const { promptTokens, completionTokens, cachedPromptTokens } = lineA.judgeUsage;
    const judgeA = ((promptTokens - cachedPromptTokens) * price.input + cachedPromptTokens * price.cachedInput + completionTokens * price.output) / 1e6;
    // Room for task a's episodes and its tournament, not for one more episode at the mean cost (judge included): the
    // solver calls alone would leave room for task b's episodes.
    const limit = (solverA + judgeA) * 1.01;
    expect(solverA + solverA / attempts).toBeLessThan(limit);
    const paths = newRun();
    const stopped = await evaluate(paths, limit);
    expect(stopped.status).toBe("incomplete");
    expect(stopped.ran).toBe(attempts);
    expect(stopped.unfinished.join("\n")).toMatch(/8 episodes not started: --max-cost/);
    const resumed = await evaluate(paths);
    expect(resumed.status).toBe("complete");
    expect(resumed.summary.cost!.total).toBeCloseTo(uninterrupted.summary.cost!.total, 12);
    expect(resumed.summary.cost!.byRole.judge).toBeCloseTo(uninterrupted.summary.cost!.byRole.judge!, 12);
  });
});
