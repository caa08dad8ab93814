/**
 * Reward forgeries against the terminal verifier (issues #29 and #44), run as tasks through the terminal cookbook on the
 * real bwrap sandbox. Each hostile solution in hostile-solutions.json replaces a bundled task's own, solves nothing,
 * and must score a scored 0: never 1, never a grading error. Fixtures: test/fixtures/terminal/hostile/ (README there).
 */
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { loadTerminalTasks } from "../../../benchmarks/harbor/load-terminal-tasks.js";
import { terminalTaskOf } from "../../../benchmarks/harbor/terminal-task.js";
import { createTerminalCookbook } from "../../../cookbooks/terminal/index.js";
import type { Episode } from "../../../src/core/episode.js";
import type { LlmClient } from "../../../src/core/llm-client.js";
import type { Task } from "../../../src/core/task.js";
import { packagePath } from "../../../src/core/package-root.js";
import { createBwrapEnvironment } from "../../../src/sandbox/local/bwrap-environment.js";
import { openTestRun } from "../../../src/testing/open-test-run.js";
import { verifyTerminalTask } from "../../../verifiers/terminal/verify-terminal-task.js";
import table from "./hostile-solutions.json" with { type: "json" };

const HostileSolutionsSchema = z.object({
  cases: z.array(z.object({ name: z.string(), class: z.string(), tasks: z.union([z.literal("all"), z.array(z.string()).min(1)]), solve: z.array(z.string()).min(1) }).strict()),
});
const { cases } = HostileSolutionsSchema.parse(table);

const testRun = openTestRun();
afterAll(() => testRun.close());

const hostile = packagePath("test/fixtures/terminal/hostile");
const sample = packagePath("benchmarks/terminal-sample/tasks");
const bundledTasks = loadTerminalTasks(sample).map((task) => path.basename(terminalTaskOf(task).taskDir));
const scratch = mkdtempSync(path.join(tmpdir(), "rllm-hostile-verifier-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const noModel: LlmClient = { model: "none", chat: () => Promise.reject(new Error("the oracle calls no model")) };

async function oracleScore(task: Task) {
  const cookbook = createTerminalCookbook({ agent: "oracle" });
  const episode = (await cookbook.flow(task, testRun.flowContext(noModel))) as Episode;
  return cookbook.evaluate(task, episode, testRun.evaluatorContext());
}

/** A copy of the bundled task `folder` whose solution script is `solve` (Harbor: solution/solve.sh, TB v1: solution.sh). */
function taskWithSolution(folder: string, caseIndex: number, solve: string[]): Task {
  const copy = path.join(scratch, `${caseIndex}-${folder}`);
  cpSync(path.join(sample, folder), copy, { recursive: true });
  const harborSolution = path.join(copy, "solution", "solve.sh");
  writeFileSync(existsSync(harborSolution) ? harborSolution : path.join(copy, "solution.sh"), `#!/bin/bash\n${solve.join("\n")}\n`);
  return loadTerminalTasks(copy)[0]!;
}

describe("hostile-solutions.json", () => {
  it("names only bundled tasks, and every bundled task meets at least one attack", () => {
    const named = cases.flatMap((entry) => (entry.tasks === "all" ? bundledTasks : entry.tasks));
    expect(bundledTasks.length).toBe(13);
    for (const folder of named) expect(bundledTasks).toContain(folder);
    expect(new Set(named)).toEqual(new Set(bundledTasks));
  });
});

describe("the terminal verifier against hostile solutions", () => {
  // Fixture tasks whose tests are naive, so only the runner stands between the attack and a reward.
  it.each([
    ["usercustomize-exit-zero", "a usercustomize.py planted under the agent's HOME that makes Python exit 0"],
    ["naive-test-rewritten", "the agent's script, run by a bash test, appending a reward line to the test script"],
    ["tbv1-forged-reward", "the agent's script, run by a Terminal-Bench v1 test, writing reward files and a daemon"],
  ])("scores 0 %s: %s", async (folder) => {
    const [task] = loadTerminalTasks(path.join(hostile, folder));
    expect(await oracleScore(task!)).toMatchObject({ value: 0, status: "scored" });
  }, 60_000);

  it("reads no reward file that was in /logs/verifier before the tests ran", async () => {
    const sandbox = createBwrapEnvironment({ memoryMb: 512 });
    try {
      const stale = path.join(scratch, "stale-reward.json");
      writeFileSync(stale, '{"reward": 1}');
      await sandbox.upload(stale, "/logs/verifier/reward.json");
      const grade = await verifyTerminalTask(sandbox, {
        taskDir: path.join(sample, "hello-file"),
        testScript: "tests/test.sh",
        format: "harbor",
        timeoutSec: 60,
        env: {},
        workdir: "/app",
        agentActed: true,
      });
      expect(grade).toMatchObject({ reward: 0, isCorrect: false });
    } finally {
      await sandbox.close();
    }
  }, 60_000);

  cases.forEach((entry, caseIndex) => {
    for (const folder of entry.tasks === "all" ? bundledTasks : entry.tasks) {
      it(`${folder}, ${entry.class}: ${entry.name} → a scored 0`, async () => {
        const score = await oracleScore(taskWithSolution(folder, caseIndex, entry.solve));
        expect(score, score.explanation).toMatchObject({ status: "scored", value: 0, isCorrect: false });
      }, 60_000);
    }
  });
});
