import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { runCli, spawnCli } from "../helpers/run-cli.js";
import { startScriptedServer } from "../helpers/scripted-openai-server.js";
import { createOpenAiClient } from "../../src/llm/openai-client.js";
import { createLlmJudge } from "../../src/tournament/llm-judge.js";
import { rerankCandidates } from "../../src/tournament/rerank-candidates.js";
import { startRerankServer } from "../../src/tournament/rerank-server.js";
import { defaultSelectionConfig } from "../../src/tournament/selection-methods.js";
import { createRng, shuffled } from "../../src/core/random.js";
import { correctAnswer, startScriptedJudge, wrongAnswer, type ScriptedJudgeServer } from "./scripted-judge.js";

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()!.close();
});

async function judgeServer(judgeAccuracy: number, generationAccuracy = 0.3): Promise<ScriptedJudgeServer> {
  const server = await startScriptedJudge({ judgeAccuracy, generationAccuracy, seed: 3 });
  servers.push(server);
  return server;
}

/** Rows of 8 candidates with exactly 2 correct (pass@1 = 0.25), at seeded positions. */
function candidateRows(count: number) {
  const rng = createRng(17);
  return Array.from({ length: count }, (_, row) => ({
    id: `task-${row}`,
    problem: `What is 6 times 7? (variant ${row})`,
    candidates: shuffled([true, true, false, false, false, false, false, false], rng).map((isCorrect, index) => ({
      text: isCorrect ? correctAnswer : wrongAnswer(index),
      isCorrect,
    })),
  }));
}

describe("rllm rerank against a scripted judge server", () => {
  it("prints rerank@1 above pass@1 when the judge beats chance", async () => {
    const server = await judgeServer(0.8);
    const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-rerank-"));
    const input = path.join(directory, "candidates.jsonl");
    writeFileSync(input, candidateRows(20).map((row) => JSON.stringify(row)).join("\n"));
    const output = path.join(directory, "picks.jsonl");
    const records = path.join(directory, "records.jsonl");
    const result = await runCli([
      "rerank", "--input", input, "--method", "v1,pointwise", "--budget", "2",
      "--base-url", server.url, "--model", "scripted", "--output", output, "--records", records,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const passAt1 = Number(/pass@1 ([\d.]+)/.exec(result.stderr)![1]);
    const rerankAt1 = Number(/v1: rerank@1 ([\d.]+)/.exec(result.stderr)![1]);
    expect(passAt1).toBeCloseTo(0.25, 6);
    expect(rerankAt1).toBeGreaterThan(passAt1 + 0.2);
    const picks = readFileSync(output, "utf8").trim().split("\n").map((line) => JSON.parse(line));
    expect(picks).toHaveLength(40);
    const v1Pick = picks.find((pick) => pick.method === "v1")!;
    expect(v1Pick.scores).toHaveLength(8);
    expect(v1Pick.judgeCalls).toBe(16);
    const record = JSON.parse(readFileSync(records, "utf8").split("\n")[0]!);
    expect(record.comparisons).toHaveLength(16);
    expect(record.comparisons[0]).toMatchObject({ ratingA: expect.any(Number), ratingB: expect.any(Number) });
  });
});

describe("rllm rerank with adaptive-duel and a call budget per row", () => {
  it("groups candidates by their answer labels, keeps each row within --max-calls or its own maxCalls", async () => {
    const server = await judgeServer(0.8);
    const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-rerank-duel-"));
    const input = path.join(directory, "candidates.jsonl");
    const rows = candidateRows(6).map((row, index) => ({
      ...row,
      candidates: row.candidates.map((candidate) => ({ ...candidate, answer: /(\d+)\.$/.exec(candidate.text)![1] })),
      ...(index === 0 ? { maxCalls: 1 } : {}),
    }));
    writeFileSync(input, rows.map((row) => JSON.stringify(row)).join("\n"));
    const records = path.join(directory, "records.jsonl");
    const result = await runCli(["rerank", "--input", input, "--method", "adaptive-duel", "--max-calls", "5", "--base-url", server.url, "--model", "scripted", "--records", records]);
    expect(result.code, result.stderr).toBe(0);
    const picks = result.stdout.trim().split("\n").map((line) => JSON.parse(line));
    expect(picks[0].judgeCalls).toBeLessThanOrEqual(1);
    for (const pick of picks) expect(pick.judgeCalls).toBeLessThanOrEqual(5);
    for (const line of readFileSync(records, "utf8").trim().split("\n")) {
      const record = JSON.parse(line);
      const row = rows.find((candidate) => candidate.id === record.id)!;
      for (const comparison of record.comparisons) expect(row.candidates[comparison.slotA]!.answer).not.toBe(row.candidates[comparison.slotB]!.answer);
    }
  });

  it("exits 2 naming --max-calls when it is not a count", async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-rerank-duel-"));
    const input = path.join(directory, "candidates.jsonl");
    writeFileSync(input, JSON.stringify(candidateRows(1)[0]));
    const result = await runCli(["rerank", "--input", input, "--method", "adaptive-duel", "--max-calls", "-1"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--max-calls/);
  });
});

describe("rllm rerank against a judge whose replies cannot be parsed", () => {
  it("reports the method as failed instead of scoring the candidate in slot 0, and exits 1", async () => {
    const server = await startScriptedServer(() => ({ text: "Both solutions look reasonable to me." }));
    servers.push(server);
    const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-rerank-"));
    const input = path.join(directory, "candidates.jsonl");
    // The right answer always comes first: a position rule would score 1.0.
    const rows = Array.from({ length: 6 }, (_, row) => ({
      id: `task-${row}`,
      problem: `What is 6 times 7? (variant ${row})`,
      candidates: [{ text: correctAnswer, isCorrect: true }, ...[1, 2, 3].map((index) => ({ text: wrongAnswer(index), isCorrect: false }))],
    }));
    writeFileSync(input, rows.map((row) => JSON.stringify(row)).join("\n"));
    const result = await runCli(["rerank", "--input", input, "--method", "v1,pointwise", "--budget", "2", "--base-url", server.url, "--model", "scripted"]);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/v1: FAILED, 48 of 48 judge verdicts unparsable/);
    expect(result.stderr).toMatch(/pointwise: FAILED, 48 of 48 judge verdicts unparsable/);
    expect(result.stderr).not.toMatch(/rerank@1 1\.0000/);
    const picks = result.stdout.trim().split("\n").map((line) => JSON.parse(line));
    // Every pick was a tie among all four; drawn with the seed, not always the first.
    expect(new Set(picks.map((pick) => pick.chosenIndex)).size).toBeGreaterThan(1);
  });
});

describe("rerankCandidates through the OpenAI client", () => {
  it.each([
    [0.65, 60],
    [0.9, 25],
  ])("beats pass@1 with judge accuracy %s (%s problems) and records one judge Step per call", async (judgeAccuracy, problems) => {
    const server = await judgeServer(judgeAccuracy);
    const client = createOpenAiClient({ baseUrl: server.url, model: "scripted", requestLogprobs: false, requestTokenIds: false });
    const judge = createLlmJudge({ client, kind: "math" });
    const rows = candidateRows(problems);
    let correct = 0;
    for (const [index, row] of rows.entries()) {
      const { record, judgeTrajectory } = await rerankCandidates({
        problem: row.problem,
        candidates: row.candidates.map((candidate) => candidate.text),
        judge,
        method: "v1",
        config: defaultSelectionConfig(16),
        seed: index,
      });
      if (row.candidates[record.chosenIndex]!.isCorrect) correct += 1;
      expect(judgeTrajectory.name).toBe("judge");
      expect(judgeTrajectory.steps).toHaveLength(record.judgeCalls);
      expect(judgeTrajectory.steps[0]!.info).toMatchObject({ type: "pair", slotA: record.comparisons[0]!.slotA });
    }
    expect(correct / rows.length).toBeGreaterThan(0.25 + 0.1);
  });
});

describe("the rerank server", () => {
  it("answers with the tournament winner, its scores in a field and a header, better than a single sample", async () => {
    const upstream = await judgeServer(0.85, 0.3);
    const server = await startRerankServer({ upstream: upstream.url, model: "scripted", n: 8, budget: 2, maxCalls: 256, method: "v1", judgeKind: "math", port: 0 });
    servers.push(server);
    const client = new OpenAI({ baseURL: server.url, apiKey: "unused", maxRetries: 0 });
    let winnersCorrect = 0;
    const requests = 40;
    for (let request = 0; request < requests; request += 1) {
      const { data, response } = await client.chat.completions
        .create({ model: "scripted", messages: [{ role: "user", content: `What is 6 times 7? (${request})` }] })
        .withResponse();
      const rerank = (data as unknown as { rerank: { chosenIndex: number; scores: number[]; judgeCalls: number; candidates: number } }).rerank;
      expect(rerank.candidates).toBe(8);
      expect(rerank.scores).toHaveLength(8);
      expect(rerank.judgeCalls).toBe(16);
      expect(JSON.parse(response.headers.get("x-rllm-rerank")!).chosenIndex).toBe(rerank.chosenIndex);
      if (data.choices[0]!.message.content === correctAnswer) winnersCorrect += 1;
    }
    const passAt1 = upstream.generated.filter(Boolean).length / upstream.generated.length;
    expect(upstream.generated).toHaveLength(8 * requests);
    expect(winnersCorrect / requests).toBeGreaterThan(passAt1 + 0.15);
  });

  it("runs as `rllm serve --rerank` and answers any OpenAI client", async () => {
    const upstream = await judgeServer(0.85);
    const child = spawnCli(["serve", "--rerank", "v1", "--upstream", upstream.url, "--model", "scripted", "-n", "4", "--budget", "2", "--port", "0"]);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let stderr = "";
        child.stderr!.on("data", (chunk) => {
          stderr += chunk;
          const match = /reranking server at (\S+)/.exec(stderr);
          if (match) resolve(match[1]!);
        });
        child.on("close", () => reject(new Error(`serve exited: ${stderr}`)));
      });
      const client = new OpenAI({ baseURL: url, apiKey: "unused", maxRetries: 0 });
      const reply = await client.chat.completions.create({ model: "scripted", messages: [{ role: "user", content: "6 times 7?" }] });
      expect(reply.choices[0]!.message.content).toMatch(/The answer is \d+\./);
      expect((reply as unknown as { rerank: { judgeCalls: number } }).rerank.judgeCalls).toBe(8);
    } finally {
      child.kill("SIGINT");
    }
  });

  it("streams the winner as one chunk for clients that ask for a stream", async () => {
    const upstream = await judgeServer(0.85);
    const server = await startRerankServer({ upstream: upstream.url, model: "scripted", n: 4, budget: 1, maxCalls: 256, method: "v1", judgeKind: "math", port: 0 });
    servers.push(server);
    const client = new OpenAI({ baseURL: server.url, apiKey: "unused", maxRetries: 0 });
    const stream = await client.chat.completions.create({ model: "scripted", messages: [{ role: "user", content: "6 times 7?" }], stream: true });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    expect(text).toMatch(/The answer is \d+\./);
  });

  it("rejects a request without messages with an OpenAI-shaped 400 naming the field", async () => {
    const upstream = await judgeServer(0.85);
    const server = await startRerankServer({ upstream: upstream.url, model: "scripted", n: 2, budget: 1, maxCalls: 256, method: "v1", judgeKind: "math", port: 0 });
    servers.push(server);
    const response = await fetch(`${server.url}/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: "scripted" }) });
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toContain('field "messages"');
  });
});
