/**
 * Reward forgeries against the terminal verifier (issue #29), run as tasks through the terminal cookbook on the real
 * bwrap sandbox. Each task's oracle is an attack that solves nothing; its reward must be 0. Fixtures:
 * test/fixtures/terminal/hostile/ (README there).
 */
import { copyFileSync, cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadTerminalTasks } from "../../../benchmarks/harbor/load-terminal-tasks.js";
import { createTerminalCookbook } from "../../../cookbooks/terminal/index.js";
import type { Episode } from "../../../src/core/episode.js";
import type { LlmClient } from "../../../src/core/llm-client.js";
import type { Task } from "../../../src/core/task.js";
import { packagePath } from "../../../src/core/package-root.js";
import { openTestRun } from "../../../src/testing/open-test-run.js";

const testRun = openTestRun();
afterAll(() => testRun.close());

const hostile = packagePath("test/fixtures/terminal/hostile");
const scratch = mkdtempSync(path.join(tmpdir(), "rllm-hostile-verifier-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const noModel: LlmClient = { model: "none", chat: () => Promise.reject(new Error("the oracle calls no model")) };

async function oracleScore(task: Task) {
  const cookbook = createTerminalCookbook({ agent: "oracle" });
  const episode = (await cookbook.flow(task, testRun.flowContext(noModel))) as Episode;
  return cookbook.evaluate(task, episode, testRun.evaluatorContext());
}

/** The bundled python-bugfix task with its solution replaced by `attack` (a file under attacks/). */
function pythonBugfixWith(attack: string): Task {
  const folder = path.join(scratch, attack.replace(/\.sh$/, ""));
  cpSync(packagePath("benchmarks/terminal-sample/tasks/python-bugfix"), folder, { recursive: true });
  copyFileSync(path.join(hostile, "attacks", attack), path.join(folder, "solution", "solve.sh"));
  return loadTerminalTasks(folder)[0]!;
}

describe("the terminal verifier against hostile agents", () => {
  it("scores 0 a usercustomize.py planted under the agent's HOME that makes Python exit 0 (naive test)", async () => {
    const [task] = loadTerminalTasks(path.join(hostile, "usercustomize-exit-zero"));
    expect(await oracleScore(task!)).toMatchObject({ value: 0, status: "scored" });
  });

  it.each(["pytest-shadow.sh", "usercustomize.sh"])("scores 0 the bundled python-bugfix task under %s", async (attack) => {
    expect(await oracleScore(pythonBugfixWith(attack))).toMatchObject({ value: 0, status: "scored" });
  });
});
