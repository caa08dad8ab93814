/**
 * Whose failure is a verifier that gives no reward (issue #29, docs/concepts.md)? Through the real bwrap sandbox, on a
 * task whose tests run the agent's script under `set -e`: once the agent has acted, a verifier that writes no reward
 * file or times out is a scored 0 with the reason (the agent's changes may have broken the tests); only when the agent
 * ran nothing is it a grading error (unscored), the task's own failure.
 */
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadTerminalTasks } from "../../../benchmarks/harbor/load-terminal-tasks.js";
import { createTerminalCookbook, type TerminalOptions } from "../../../cookbooks/terminal/index.js";
import type { Episode } from "../../../src/core/episode.js";
import type { ChatResponse, LlmClient } from "../../../src/core/llm-client.js";
import { createRecordingLlmClient } from "../../../src/testing/index.js";
import { openTestRun } from "../../../src/testing/open-test-run.js";

const testRun = openTestRun();
afterAll(() => testRun.close());

const [task] = loadTerminalTasks(path.join(import.meta.dirname, "../../fixtures/terminal-tasks/script-under-test"));
const noModel: LlmClient = { model: "none", chat: () => Promise.reject(new Error("this agent calls no model")) };

/** One reply running `command` with the bash tool, then a reply with no tool call (the agent stops). */
const agentRunning = (command: string): LlmClient =>
  createRecordingLlmClient({
    reply: (_request, callIndex): string | ChatResponse =>
      callIndex > 0
        ? "done"
        : {
            choices: [{ text: "", toolCalls: [{ id: "call-0", type: "function", function: { name: "bash", arguments: JSON.stringify({ command }) } }], finishReason: "tool_calls" }],
            usage: { promptTokens: 0, completionTokens: 0 },
            model: "recording",
          },
  });

async function runEpisode(options: Partial<TerminalOptions>, client: LlmClient = noModel) {
  const cookbook = createTerminalCookbook(options);
  const episode = (await cookbook.flow(task!, testRun.flowContext(client))) as Episode;
  return { episode, score: await cookbook.evaluate(task!, episode, testRun.evaluatorContext()) };
}

describe("a verifier that gives no reward", () => {
  it("is a scored 0 when the agent's script makes the tests exit before writing the reward", async () => {
    const { score } = await runEpisode({ agent: "bash" }, agentRunning("echo 'raise SystemExit(3)' > /app/answer.py"));
    expect(score.status).toBe("scored");
    expect(score.value).toBe(0);
    expect(score.signals?.gradingError).toBeUndefined();
    expect(score.signals?.verifierFailed).toBe(1);
    expect(score.explanation).toContain("the verifier wrote no /logs/verifier/reward.json or reward.txt (the agent's changes may have broken the tests)");
  }, 120_000);

  it("is a scored 0 when the agent's script makes the tests hang past the verifier's timeout", async () => {
    const { score } = await runEpisode({ agent: "bash" }, agentRunning("echo 'import time; time.sleep(600)' > /app/answer.py"));
    expect(score.status).toBe("scored");
    expect(score.value).toBe(0);
    expect(score.signals?.gradingError).toBeUndefined();
    expect(score.explanation).toContain("the verifier timed out after 5 s (the agent's changes may have broken the tests)");
  }, 120_000);

  it("stays a grading error (unscored) when the agent ran nothing: the untouched task's tests fail on their own", async () => {
    const { score } = await runEpisode({ agent: "nop" });
    expect(score.status).toBe("unscored");
    expect(score.signals?.gradingError).toBe(1);
    expect(score.explanation).toContain("on the environment the agent left untouched");
  }, 120_000);

  it("does not hide a right answer: the oracle gets 1", async () => {
    const { score } = await runEpisode({ agent: "oracle" });
    expect(score.value).toBe(1);
  }, 120_000);
});
