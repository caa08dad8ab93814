// The cookbooks graded by an environment (listed in environment-cookbook-cases.json) keep the Score contract on real
// episodes: their evaluators read the environment's outcome, not a reply, so each case runs the cookbook's flow.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { loadTerminalTasks } from "../../benchmarks/harbor/load-terminal-tasks.js";
import { createTerminalCookbook } from "../../cookbooks/terminal/index.js";
import { frozenLakeCookbook } from "../../cookbooks/frozenlake/index.js";
import type { Cookbook } from "../../src/core/cookbook.js";
import { EpisodeSchema, type Episode } from "../../src/core/episode.js";
import type { LlmClient } from "../../src/core/llm-client.js";
import type { Task } from "../../src/core/task.js";
import { packagePath } from "../../src/core/package-root.js";
import { createRecordingLlmClient } from "../../src/testing/index.js";
import { runScoreContract } from "./score-contract.js";
import { openTestRun } from "../../src/testing/open-test-run.js";

const testRun = openTestRun();
afterAll(() => testRun.close());

const scratch = mkdtempSync(path.join(os.tmpdir(), "rllm-environment-contract-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function scoreFlow(cookbook: Cookbook, task: Task, client: LlmClient) {
  const episode = (await cookbook.flow(task, testRun.flowContext(client))) as Episode;
  return cookbook.evaluate(task, episode, testRun.evaluatorContext());
}

const lake: Task = { id: "lake", instruction: "", metadata: { map: ["SF", "HG"], max_steps: 4 } };
const move = (action: string) => `\`\`\`\n${action}\n\`\`\``;
runScoreContract({
  name: "frozenlake cookbook",
  gold: () => scoreFlow(frozenLakeCookbook, lake, createRecordingLlmClient({ reply: [move("Right"), move("Down")] })),
  nearMiss: () => scoreFlow(frozenLakeCookbook, lake, createRecordingLlmClient({ reply: [move("Down")] })),
  ungradable: async () => frozenLakeCookbook.evaluate(lake, EpisodeSchema.parse({ id: "lake:0", taskId: "lake", attempt: 0 }), testRun.evaluatorContext()),
});

const sample = packagePath("benchmarks/terminal-sample/tasks");
const [hello] = loadTerminalTasks(path.join(sample, "hello-file"));
const noModel: LlmClient = { model: "none", chat: () => Promise.reject(new Error("no model")) };
runScoreContract({
  name: "terminal cookbook",
  gold: () => scoreFlow(createTerminalCookbook({ agent: "oracle" }), hello!, noModel),
  nearMiss: () => scoreFlow(createTerminalCookbook({ agent: "nop" }), hello!, noModel),
  ungradable: async () => {
    const folder = path.join(scratch, "no-reward");
    cpSync(path.join(sample, "hello-file"), folder, { recursive: true });
    writeFileSync(path.join(folder, "tests", "test.sh"), "#!/bin/bash\necho 'tests ran, but wrote no reward'\n");
    const [task] = loadTerminalTasks(folder);
    // The nop agent leaves the environment untouched, so a missing reward is the task's fault: ungradable. After an
    // agent acted, it would be a scored 0 (issue 29: the agent may have broken the tests).
    return scoreFlow(createTerminalCookbook({ agent: "nop" }), task!, noModel);
  },
  timeoutMs: 30_000,
});
