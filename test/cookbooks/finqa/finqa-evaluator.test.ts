// The FinQA evaluator: deterministic grading, β · tableAccess, and the optional judge for free-text gold answers.
import { afterAll, describe, expect, it } from "vitest";
import { createFinqaEvaluator } from "../../../cookbooks/finqa/finqa-evaluator.js";
import { readJudgeReply } from "../../../cookbooks/finqa/judge-answer.js";
import { EpisodeSchema, type Episode } from "../../../src/core/episode.js";
import type { Task } from "../../../src/core/task.js";
import type { ChatRequest, ChatResponse, LlmClient } from "../../../src/core/llm-client.js";
import { openTestRun } from "../../../src/testing/open-test-run.js";

const testRun = openTestRun();
afterAll(() => testRun.close());

/** An LlmClient that answers every call with `reply` and records the requests. */
function fakeJudge(reply: string): LlmClient & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    model: "fake-judge",
    requests,
    async chat(request): Promise<ChatResponse> {
      requests.push(request);
      return { model: "fake-judge", usage: { promptTokens: 1, completionTokens: 1 }, choices: [{ text: reply, toolCalls: [], finishReason: "stop" }] };
    },
  };
}

const task = (groundTruth: string | number, expectedTables: string[] = ["revenue", "costs"]): Task => ({
  id: "t1",
  instruction: "Company: ACME\nQuestion: how did revenue change?",
  metadata: { ground_truth: groundTruth, question: "how did revenue change?", expected_tables: expectedTables },
});

const episode = (reply: string, accessedTables: string[] = ["REVENUE"]): Episode =>
  EpisodeSchema.parse({
    id: "t1:0",
    taskId: "t1",
    attempt: 0,
    trajectories: [{ name: "solver", steps: [{ input: [], output: reply }] }],
    artifacts: { answer: reply, accessedTables, turns: 4, toolErrors: 1 },
  });

describe("finqa evaluator", () => {
  it("adds β times the share of expected tables accessed (case-insensitive) to correctness", async () => {
    const output = await createFinqaEvaluator({ beta: 0.2 })(task(0.14464), episode("FINAL ANSWER: 14.46%"), testRun.evaluatorContext());
    expect(output).toMatchObject({ isCorrect: true, status: "scored", signals: { tableAccess: 0.5, turns: 4, toolErrors: 1 } });
    expect(output.value).toBeCloseTo(1.1, 12);
  });

  it("gives only the bonus to a wrong answer", async () => {
    const output = await createFinqaEvaluator()(task(0.14464), episode("FINAL ANSWER: 12%", ["revenue", "costs"]), testRun.evaluatorContext());
    expect(output).toMatchObject({ isCorrect: false, value: 0.1, status: "scored" });
  });

  it("leaves a free-text gold answer unscored without a judge, and never calls one for numeric gold", async () => {
    const judge = fakeJudge('{"correct": true, "reason": "same"}');
    const unscored = await createFinqaEvaluator()(task("Revenue rose from $10 million to $12 million, up 20%."), episode("FINAL ANSWER: up 20%"), testRun.evaluatorContext());
    expect(unscored).toMatchObject({ isCorrect: false, value: 0, status: "unscored", answer: "up 20%" });
    expect(unscored.explanation).toMatch(/free text/);
    await createFinqaEvaluator({ judge })(task(94), episode("FINAL ANSWER: 94"), testRun.evaluatorContext());
    expect(judge.requests).toHaveLength(0);
  });

  it("asks the judge about free-text gold answers, with the question, the answer and the reference", async () => {
    const judge = fakeJudge('Verdict: {"correct": true, "reason": "both say 20% growth"}');
    const gold = "Revenue rose from $10 million to $12 million, up 20%.";
    const output = await createFinqaEvaluator({ judge, beta: 0 })(task(gold), episode("FINAL ANSWER: up 20% (10 → 12)"), testRun.evaluatorContext());
    expect(output).toMatchObject({ isCorrect: true, value: 1, status: "scored", explanation: "judge: both say 20% growth" });
    const prompt = String(judge.requests[0]?.messages[1]?.content);
    expect(prompt).toContain("Question: how did revenue change?");
    expect(prompt).toContain("Model answer: up 20% (10 → 12)");
    expect(prompt).toContain(`Reference answer: ${gold}`);
    expect(judge.requests[0]?.temperature).toBe(0);
  });

  it("keeps an episode unscored when the judge's reply has no verdict", async () => {
    const output = await createFinqaEvaluator({ judge: fakeJudge("I cannot tell.") })(task("grew strongly in both years"), episode("FINAL ANSWER: it grew"), testRun.evaluatorContext());
    expect(output).toMatchObject({ isCorrect: false, value: 0, status: "unscored", explanation: "unscored: the judge's reply had no verdict" });
  });

  it("reads judge replies as JSON, else by rLLM's true/false rule", () => {
    expect(readJudgeReply('{"correct": false, "reason": "off by 10%"}').isCorrect).toBe(false);
    expect(readJudgeReply("True, they match").isCorrect).toBe(true);
    expect(readJudgeReply("true or false? unclear").isCorrect).toBeUndefined();
  });

  it("refuses a task without a ground truth", async () => {
    await expect(createFinqaEvaluator()({ id: "x", instruction: "q", metadata: {} }, episode("FINAL ANSWER: 1"), testRun.evaluatorContext())).rejects.toThrow(/ground_truth/);
  });
});
