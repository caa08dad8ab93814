import { afterAll, describe, expect, it } from "vitest";
import { deepcoderCookbook } from "../../../cookbooks/deepcoder/index.js";
import { EpisodeSchema } from "../../../src/core/episode.js";
import type { Task } from "../../../src/core/task.js";
import type { Trajectory } from "../../../src/core/trajectory.js";
import type { ChatRequest, ChatResponse, LlmClient } from "../../../src/core/llm-client.js";
import { openTestRun } from "../../../src/testing/open-test-run.js";

const testRun = openTestRun();
afterAll(() => testRun.close());

/** A client that answers every call with `reply` and records the requests. */
function fakeClient(reply: string): LlmClient & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    model: "fake",
    requests,
    async chat(request): Promise<ChatResponse> {
      requests.push(request);
      return { choices: [{ text: reply, toolCalls: [], finishReason: "stop" }], usage: { promptTokens: 10, completionTokens: 5 }, model: "fake" };
    },
  };
}

const functionTask: Task = {
  id: "add",
  instruction: "Complete `add` so that it returns the sum.",
  metadata: { starter_code: "def add(a, b):\n    \"\"\"Sum.\"\"\"\n", fn_name: "add", tests: [{ testtype: "functional", input: "1\n2", output: "3" }] },
};
const stdinTask: Task = {
  id: "double",
  instruction: "Read n and print 2n.",
  metadata: { starter_code: "", tests: JSON.stringify([{ testtype: "stdin", input: "21\n", output: "42\n" }]) },
};

async function runAndEvaluate(task: Task, reply: string) {
  const client = fakeClient(reply);
  const trajectory = (await deepcoderCookbook.flow(task, testRun.flowContext(client))) as Trajectory;
  const episode = EpisodeSchema.parse({ id: `${task.id}:0`, taskId: task.id, attempt: 0, trajectories: [trajectory] });
  return { client, trajectory, verdict: await deepcoderCookbook.evaluate(task, episode, testRun.evaluatorContext()) };
}

describe("deepcoderCookbook", () => {
  it("asks with the starter code and returns one solver step", async () => {
    const { client, trajectory } = await runAndEvaluate(functionTask, "```python\ndef add(a, b):\n    return a + b\n```");
    const prompt = String(client.requests[0]!.messages[1]!.content);
    expect(prompt).toContain("### Format: You will use the following starter code");
    expect(prompt).toContain("def add(a, b):");
    expect(trajectory.name).toBe("solver");
    expect(trajectory.steps).toHaveLength(1);
    expect(trajectory.output).toContain("return a + b");
  });

  it("asks for a stdin/stdout program when there is no starter code", async () => {
    const { client } = await runAndEvaluate(stdinTask, "```python\nprint(int(input()) * 2)\n```");
    expect(String(client.requests[0]!.messages[1]!.content)).toContain("Read the inputs from stdin");
  });

  it("rewards 1 when the last code block passes every test", async () => {
    const reply = "First try:\n```python\nprint(0)\n```\nFixed:\n```python\nprint(int(input()) * 2)\n```";
    const { verdict } = await runAndEvaluate(stdinTask, reply);
    expect(verdict).toMatchObject({ value: 1, isCorrect: true });
  });

  it("rewards 0 for a near miss", async () => {
    const { verdict } = await runAndEvaluate(functionTask, "```python\ndef add(a, b):\n    return a - b\n```");
    expect(verdict).toMatchObject({ value: 0, isCorrect: false });
  });

  it("records each test's verdict in the score's details, for the report", async () => {
    const { verdict } = await runAndEvaluate(functionTask, "```python\ndef add(a, b):\n    return a - b\n```");
    expect(verdict.details).toMatchObject({ verdict: "wrong_answer", tests: [{ index: 0, verdict: "wrong_answer" }] });
  });

  it("rewards 0 for a reply without a code block", async () => {
    const { verdict } = await runAndEvaluate(stdinTask, "print(int(input()) * 2)");
    expect(verdict).toMatchObject({ value: 0, isCorrect: false, explanation: "no fenced code block in the reply" });
  });
});
