import { afterAll, describe, expect, it } from "vitest";
import { geo3kBenchmark } from "../../../benchmarks/geo3k/index.js";
import { geo3kCookbook } from "../../../cookbooks/geo3k/index.js";
import { mathCookbook } from "../../../cookbooks/math/index.js";
import type { Episode } from "../../../src/core/episode.js";
import type { Task } from "../../../src/core/task.js";
import type { Trajectory } from "../../../src/core/trajectory.js";
import type { ChatRequest, LlmClient } from "../../../src/core/llm-client.js";
import { openTestRun } from "../../../src/testing/open-test-run.js";

const testRun = openTestRun();
afterAll(() => testRun.close());

/** A fake client that records each request and answers with a fixed text. */
function recordingClient(text: string): LlmClient & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    model: "fake",
    requests,
    async chat(request) {
      requests.push(request);
      return { choices: [{ text, toolCalls: [], finishReason: "stop" }], usage: { promptTokens: 10, completionTokens: 5 }, model: "fake" };
    },
  };
}

const episodeWith = (task: Task, output: string): Episode => ({
  id: `${task.id}:0`,
  taskId: task.id,
  attempt: 0,
  trajectories: [{ name: "solver", steps: [], reward: null, output, signals: {}, info: {} }],
  score: { value: 0, isCorrect: false, status: "unscored", signals: {} },
  artifacts: {},
  signals: {},
  terminationReason: "done",
  timings: {},
  usage: { promptTokens: 0, completionTokens: 0 },
  errorClass: null,
  error: null,
});

const tasks = await geo3kBenchmark.loadTasks({ home: "/nonexistent" });
const task15 = tasks.find((task) => task.id === "15")!;

describe("geo3k cookbook", () => {
  it("sends the system prompt and the diagram with the text, and records the reply as the solver step", async () => {
    const client = recordingClient("30-60-90 triangle, so $y = \\boxed{5\\sqrt{3}}$");
    const controller = new AbortController();
    const trajectory = (await geo3kCookbook.flow(task15, testRun.flowContext(client, { sampling: { temperature: 0.5 }, signal: controller.signal }))) as Trajectory;
    const request = client.requests[0]!;
    expect(request.temperature).toBe(0.5);
    expect(request.signal).toBe(controller.signal);
    expect(request.messages[0]).toMatchObject({ role: "system" });
    expect(String(request.messages[0]!.content)).toContain("\\boxed{}");
    const content = request.messages[1]!.content as { type: string }[];
    expect(content.map((block) => block.type)).toEqual(["image_url", "text"]);
    expect(trajectory).toMatchObject({ name: "solver", output: "30-60-90 triangle, so $y = \\boxed{5\\sqrt{3}}$" });
    expect(trajectory.steps[0]).toMatchObject({ output: trajectory.output, usage: { promptTokens: 10, completionTokens: 5 } });
  });

  it("gives reward 1 to an equivalent answer, a letter or a rounded value, and 0 to a near miss", async () => {
    const grade = async (output: string) => geo3kCookbook.evaluate(task15, episodeWith(task15, output), testRun.evaluatorContext());
    expect(await grade("\\boxed{5 \\sqrt 3}")).toMatchObject({ value: 1, isCorrect: true, answer: "5 \\sqrt 3" });
    expect(await grade("The answer is \\boxed{C}")).toMatchObject({ value: 1, isCorrect: true });
    expect(await grade("\\boxed{8.66}")).toMatchObject({ value: 1 });
    expect(await grade("\\boxed{5\\sqrt{2}}")).toMatchObject({ value: 0, isCorrect: false });
    expect(await grade("\\boxed{B}")).toMatchObject({ value: 0 });
    expect(await grade("I could not read the diagram well enough to work out the length of this side.")).toMatchObject({ value: 0 });
  });

  it("extracts comparable answers for majority voting", () => {
    expect(geo3kCookbook.extractAnswer!(task15, episodeWith(task15, "\\boxed{5\\sqrt{3}}"))).toBe(
      geo3kCookbook.extractAnswer!(task15, episodeWith(task15, "so y = \\boxed{5 \\sqrt { 3 }}")),
    );
  });
});

describe("math cookbook", () => {
  const task: Task = { id: "m1", instruction: "What is 1/2 + 1/4?", metadata: { ground_truth: "\\frac{3}{4}" } };

  it("asks for a boxed answer and grades it with the math verifier", async () => {
    const client = recordingClient("1/2 + 1/4 = \\boxed{0.75}");
    const trajectory = (await mathCookbook.flow(task, testRun.flowContext(client))) as Trajectory;
    expect(client.requests[0]!.messages[1]).toEqual({ role: "user", content: "What is 1/2 + 1/4?" });
    expect(await mathCookbook.evaluate(task, episodeWith(task, String(trajectory.output)), testRun.evaluatorContext())).toMatchObject({ value: 1, isCorrect: true });
    expect(await mathCookbook.evaluate(task, episodeWith(task, "\\boxed{0.7}"), testRun.evaluatorContext())).toMatchObject({ value: 0, isCorrect: false });
  });
});
