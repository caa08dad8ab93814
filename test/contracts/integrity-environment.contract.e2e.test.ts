// The integrity contract for the cookbooks graded by an environment (frozenlake, terminal): hostile play from
// integrity-cases.json runs through the real flow, and the episode must score 0 with a reason, never an infra error.
// A flow may also end in a ModelError (the engine counts that as a wrong answer); any other throw breaks the rule.
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadTerminalTasks } from "../../benchmarks/harbor/load-terminal-tasks.js";
import { frozenLakeCookbook } from "../../cookbooks/frozenlake/index.js";
import { createTerminalCookbook } from "../../cookbooks/terminal/index.js";
import type { Cookbook } from "../../src/core/cookbook.js";
import type { Episode } from "../../src/core/episode.js";
import { ModelError } from "../../src/core/errors/model-error.js";
import type { ChatResponse, LlmClient } from "../../src/core/llm-client.js";
import { packagePath } from "../../src/core/package-root.js";
import type { Task } from "../../src/core/task.js";
import { createRecordingLlmClient } from "../../src/testing/index.js";
import { expectCandidateFailure, readIntegrityCases } from "./candidate-failure.js";
import { openTestRun } from "../../src/testing/open-test-run.js";

const testRun = openTestRun();
afterAll(() => testRun.close());

const table = readIntegrityCases();

async function expectFlowFailsTheCandidate(cookbook: Cookbook, task: Task, client: LlmClient): Promise<void> {
  let episode: Episode;
  try {
    episode = (await cookbook.flow(task, testRun.flowContext(client))) as Episode;
  } catch (error) {
    expect(error, (error as Error).message).toBeInstanceOf(ModelError);
    return;
  }
  expectCandidateFailure(await cookbook.evaluate(task, episode, testRun.evaluatorContext()));
}

describe("frozenlake cookbook on hostile play", () => {
  const lake: Task = { id: "lake", instruction: "", metadata: { map: ["SF", "HG"], max_steps: 4 } };
  for (const testCase of table.environmentCookbooks.frozenlake) {
    it(`${testCase.name}: a scored 0, not an infra error`, () =>
      expectFlowFailsTheCandidate(
        frozenLakeCookbook,
        lake,
        // The last reply repeats for as many turns as the flow asks.
        createRecordingLlmClient({ reply: (_request, callIndex) => testCase.replies[Math.min(callIndex, testCase.replies.length - 1)]! }),
      ),
    );
  }
});

describe("terminal cookbook on hostile agents", () => {
  const sample = packagePath("benchmarks/terminal-sample/tasks");
  /** One reply running `commands` with the bash tool, then a reply with no tool call (the agent stops). */
  const agentRunning = (commands: string[]): LlmClient =>
    createRecordingLlmClient({
      reply: (_request, callIndex): string | ChatResponse =>
        callIndex > 0
          ? "done"
          : {
              choices: [
                {
                  text: "",
                  toolCalls: commands.map((command, index) => ({ id: `call-${index}`, type: "function" as const, function: { name: "bash", arguments: JSON.stringify({ command }) } })),
                  finishReason: "tool_calls",
                },
              ],
              usage: { promptTokens: 0, completionTokens: 0 },
              model: "recording",
            },
    });
  // Terminal import forgeries (issue #44): the agent leaves code that the tests run, and that code goes for the reward.
  const classes = new Map<string, typeof table.environmentCookbooks.terminal>();
  for (const testCase of table.environmentCookbooks.terminal) {
    const name = testCase.class ?? "hostile commands";
    classes.set(name, [...(classes.get(name) ?? []), testCase]);
  }
  for (const [name, cases] of classes) {
    describe(name, () => {
      for (const testCase of cases) {
        it(`${testCase.task}: ${testCase.name}: a scored 0, not an infra error`, async () => {
          const [task] = loadTerminalTasks(path.join(sample, testCase.task));
          await expectFlowFailsTheCandidate(createTerminalCookbook({ agent: "bash" }), task!, agentRunning(testCase.commands));
        }, 120_000);
      }
    });
  }
});
