import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRng } from "../../src/core/random.js";
import { runCli } from "../helpers/run-cli.js";
import { lastUserText, startScriptedServer, stringHash, type ScriptedServer } from "../helpers/scripted-openai-server.js";

const sample = readFileSync(new URL("../../benchmarks/qa/sample.jsonl", import.meta.url), "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line) as { id: string; question: string; ground_truth: string });

let server: ScriptedServer;

beforeAll(async () => {
  // Attempts are right 30% of the time; the judge prefers the right one of a mixed pair 85% of the time.
  // Every reply is a function of the request alone (the attempt's seed, the judge prompt's text), never of the
  // order requests arrive in, so the run is the same however the concurrent calls interleave.
  server = await startScriptedServer((body) => {
    const prompt = lastUserText(body);
    const rng = createRng(body.seed ?? stringHash(prompt));
    const row = sample.find((candidate) => prompt.includes(candidate.question));
    if (!row) return { text: "unknown question" };
    const pair = /## Solution A\n([\s\S]*?)\n\n## Solution B\n([\s\S]*?)\n\nReason step by step/.exec(prompt);
    if (pair) {
      const correctA = pair[1]!.includes(`{${row.ground_truth}}`);
      const correctB = pair[2]!.includes(`{${row.ground_truth}}`);
      if (correctA === correctB) return { text: "<rating_A>5</rating_A><rating_B>5</rating_B>" };
      const aWins = rng() < 0.85 === correctA;
      return { text: `<rating_A>${aWins ? 9 : 2}</rating_A><rating_B>${aWins ? 2 : 9}</rating_B>` };
    }
    return { text: `Let me think.\n\\boxed{${rng() < 0.3 ? row.ground_truth : `not ${row.ground_truth}`}}` };
  });
});
afterAll(() => server.close());

// `rllm eval qa` against the scripted server into a fresh run folder; returns the folder and the CLI's result.
async function evalWithRerank(flags: string[]) {
  const out = path.join(mkdtempSync(path.join(os.tmpdir(), "rllm-eval-rerank-")), "run");
  const result = await runCli(["eval", "qa", "--base-url", server.url, "--model", "scripted", "--out", out, "--seed", "3", ...flags]);
  return { out, result };
}

function readSummary(out: string) {
  return JSON.parse(readFileSync(path.join(out, "summary.json"), "utf8"));
}

describe("rllm eval --rerank", () => {
  it("reports rerank@1 per method above pass@1 and saves every task's tournament", async () => {
    const { out, result } = await evalWithRerank(["-n", "6", "--limit", "12", "--rerank", "v1,majority", "--budget", "2"]);
    expect(result.code, result.stderr).toBe(0);
    const summary = readSummary(out);
    const passAt1 = summary.metrics["pass@k"]["1"];
    expect(summary.metrics["rerank@1"].v1).toBeGreaterThan(passAt1 + 0.15);
    expect(summary.metrics.judgeCalls).toEqual({ v1: 12 * 12, majority: 0 });
    expect(summary.metrics.judgeTokens.v1).toBeGreaterThan(0);
    expect(result.stdout).toMatch(/rerank@1 \[v1\]/);
    const lines = readFileSync(path.join(out, "tournaments.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
    expect(lines).toHaveLength(24);
    const v1Line = lines.find((line) => line.method === "v1");
    expect(v1Line.judgeTrajectory.name).toBe("judge");
    expect(v1Line.judgeTrajectory.steps).toHaveLength(12);
    expect(v1Line.record.comparisons).toHaveLength(12);
    expect(v1Line.chosenEpisodeId).toBe(`${v1Line.taskId}:${v1Line.chosenIndex}`);
    const config = JSON.parse(readFileSync(path.join(out, "config.json"), "utf8"));
    expect(config.rerank).toEqual({ methods: ["v1", "majority"], budget: 2 });
  });

  it("reports a method whose judge replies cannot be parsed as failed, with no rerank@1, and exits 1", async () => {
    // This server answers pointwise judge prompts with a candidate-style reply: no <rating> anywhere.
    const { out, result } = await evalWithRerank(["-n", "4", "--limit", "6", "--rerank", "v1,pointwise", "--budget", "1"]);
    expect(result.code, result.stderr).toBe(1);
    const summary = readSummary(out);
    expect(summary.rerank.pointwise).toMatchObject({ status: "failed", "rerank@1": null, judgeCalls: 24, parseErrors: 24, tasksReranked: 6 });
    expect(summary.rerank.v1).toMatchObject({ status: "scored", parseErrors: 0, tasksReranked: 6, tasksExpected: 6 });
    expect(Object.keys(summary.metrics["rerank@1"])).toEqual(["v1"]);
    expect(result.stdout).not.toMatch(/rerank@1 \[pointwise\]/);
    expect(result.stderr).toMatch(/pointwise: FAILED, 24 of 24 judge verdicts unparsable/);
    expect(result.stderr).toMatch(/v1: rerank@1 [\d.]+ · 6\/6 tasks · judge calls 24 · parse errors 0/);
  });
});
