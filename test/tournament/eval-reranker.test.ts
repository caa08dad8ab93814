import { scored } from "../../src/core/score.js";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Cookbook } from "../../src/core/cookbook.js";
import { openRunDirectory, type RunPaths } from "../../src/runs/run-directory.js";
import { runEval, type EvalRunResult } from "../../src/engine/run-eval.js";
import { singleTurnFlow } from "../../src/engine/single-turn-flow.js";
import { createOpenAiClient } from "../../src/llm/openai-client.js";
import { createEvalReranker } from "../../src/tournament/eval-reranker.js";
import { lastUserText, startScriptedServer, stringHash, type ScriptedServer } from "../helpers/scripted-openai-server.js";
import { openRunResources } from "../../src/sandbox/run-resources.js";

// Candidates: "42" (right) or "17" (wrong), a function of the request's seed. Judge: prefers 42, 8 vs 3, unless the
// test has taken it down (HTTP 500). Every reply is a function of the request, never of arrival order.
let judgeIsDown = false;
let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer((body) => {
    const prompt = lastUserText(body);
    const pair = /## Solution A\n([\s\S]*?)\n\n## Solution B\n([\s\S]*?)\n\nReason step by step/.exec(prompt);
    if (!pair) return { text: `The answer is ${stringHash(`${body.seed}`) % 2 === 0 ? 42 : 17}.` };
    if (judgeIsDown) return { status: 500 };
    const aWins = pair[1]!.includes("42") || !pair[2]!.includes("42");
    return { text: `<rating_A>${aWins ? 8 : 3}</rating_A><rating_B>${aWins ? 3 : 8}</rating_B>` };
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

function newRun(): RunPaths {
  return openRunDirectory(path.join(mkdtempSync(path.join(os.tmpdir(), "rllm-eval-reranker-")), "run"), { test: true }, false);
}

/** One `rllm eval` invocation over `taskCount` tasks, reranking with v1 unless `rerank` is false. */
async function evaluate(paths: RunPaths, taskCount: number, rerank = true): Promise<EvalRunResult> {
  const client = createOpenAiClient({ baseUrl: server.url, model: "scripted", retryPolicy: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 } });
  const reranker = rerank
    ? createEvalReranker({ methods: ["v1"], budget: 2, client, judgeKind: "math", seed: 1, file: path.join(paths.directory, "tournaments.jsonl") })
    : undefined;
  try {
    return await runEval({
      tasks: tasks.slice(0, taskCount),
      cookbook,
      client,
      resources: openRunResources(),
      sampling: {},
      seed: 1,
      attempts,
      concurrency: 4,
      timeoutMs: 60_000,
      paths,
      signal: new AbortController().signal,
      ...(reranker ? { onTaskComplete: reranker.onTaskComplete, extendSummary: reranker.extendSummary } : {}),
    });
  } finally {
    reranker?.close();
  }
}

const tournamentLines = (paths: RunPaths) =>
  readFileSync(path.join(paths.directory, "tournaments.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));

describe("rllm eval --rerank across a kill and --resume", () => {
  it("reranks every task a killed run had finished without a tournament", async () => {
    const paths = newRun();
    // The kill: tasks a and b have all their attempts written, but neither got its tournament.
    await evaluate(paths, 2, false);
    const result = await evaluate(paths, 3);
    expect(result.ran).toBe(attempts);
    expect(tournamentLines(paths).map((line) => line.taskId).sort()).toEqual(["a", "b", "c"]);
    expect(result.summary.rerank!.v1).toMatchObject({ status: "scored", tasksReranked: 3, tasksExpected: 3, judgeCalls: 3 * 2 * attempts });
    expect(result.status).toBe("complete");
    expect(JSON.parse(readFileSync(paths.summary, "utf8"))).toMatchObject({ status: "complete", unfinished: [] });
  });

  it("does not judge a task again once it has a tournament over the same candidates", async () => {
    const paths = newRun();
    await evaluate(paths, 3);
    const before = server.requests.length;
    const result = await evaluate(paths, 3);
    expect(server.requests.length).toBe(before);
    expect(tournamentLines(paths)).toHaveLength(3);
    expect(result.summary.rerank!.v1!.tasksReranked).toBe(3);
  });

  it("calls a run incomplete while tasks lack a tournament, and --resume finishes it", async () => {
    const paths = newRun();
    judgeIsDown = true;
    let result: EvalRunResult;
    try {
      result = await evaluate(paths, 3);
    } finally {
      judgeIsDown = false;
    }
    expect(result.status).toBe("incomplete");
    expect(result.unfinished).toEqual(["rerank v1: 3 of 3 tasks have no tournament"]);
    expect(result.summary.rerank!.v1).toMatchObject({ status: "incomplete", tasksReranked: 0, rerankErrors: 3 });
    expect(JSON.parse(readFileSync(paths.summary, "utf8")).status).toBe("incomplete");
    const resumed = await evaluate(paths, 3);
    expect(resumed.status).toBe("complete");
    expect(resumed.summary.rerank!.v1).toMatchObject({ status: "scored", tasksReranked: 3, rerankErrors: 0 });
  });
});

describe("tournaments.jsonl", () => {
  it("cuts a torn last line before appending, keeps it in tournaments.jsonl.torn, and reranks that task", async () => {
    const paths = newRun();
    await evaluate(paths, 3);
    const file = path.join(paths.directory, "tournaments.jsonl");
    const lines = readFileSync(file, "utf8").trim().split("\n");
    const fragment = lines[2]!.slice(0, 120);
    writeFileSync(file, `${lines[0]}\n${lines[1]}\n${fragment}`);
    const result = await evaluate(paths, 3);
    expect(tournamentLines(paths)).toHaveLength(3);
    expect(readFileSync(`${file}.torn`, "utf8")).toBe(`${fragment}\n`);
    expect(result.summary.rerank!.v1!.tasksReranked).toBe(3);
  });

  it("names the file and line of a bad line", () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-tournaments-"));
    const file = path.join(directory, "tournaments.jsonl");
    writeFileSync(file, '{"taskId": "a",\n{"taskId": "b"}\n');
    const client = createOpenAiClient({ baseUrl: server.url, model: "scripted" });
    expect(() => createEvalReranker({ methods: ["v1"], budget: 2, client, judgeKind: "math", seed: 1, file })).toThrow(`${file}:1: not valid JSON`);
  });
});
