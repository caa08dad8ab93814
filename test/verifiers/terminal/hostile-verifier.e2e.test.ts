/**
 * Reward forgeries against the terminal verifier (issues #29 and #44), run as tasks through the terminal cookbook on the
 * real bwrap sandbox. Each task's oracle is an attack that solves nothing; its reward must be 0. Fixtures:
 * test/fixtures/terminal/hostile/ (README there).
 */
import { copyFileSync, cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadTerminalTasks } from "../../../benchmarks/harbor/load-terminal-tasks.js";
import { createTerminalCookbook } from "../../../cookbooks/terminal/index.js";
import type { Episode } from "../../../src/core/episode.js";
import type { LlmClient } from "../../../src/core/llm-client.js";
import type { Task } from "../../../src/core/task.js";
import { packagePath } from "../../../src/core/package-root.js";
import { createBwrapSandbox } from "../../../verifiers/terminal/sandbox/bwrap-sandbox.js";
import { verifyTerminalTask } from "../../../verifiers/terminal/verify-terminal-task.js";

const hostile = packagePath("test/fixtures/terminal/hostile");
const sample = packagePath("benchmarks/terminal-sample/tasks");
const scratch = mkdtempSync(path.join(tmpdir(), "rllm-hostile-verifier-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const noModel: LlmClient = { model: "none", chat: () => Promise.reject(new Error("the oracle calls no model")) };

async function oracleScore(task: Task) {
  const cookbook = createTerminalCookbook({ agent: "oracle" });
  const episode = (await cookbook.flow(task, { client: noModel, sampling: {}, attempt: 0, signal: new AbortController().signal })) as Episode;
  return cookbook.evaluate(task, episode);
}

/** The bundled python-bugfix task with its solution replaced by `attack` (a file under attacks/). */
function pythonBugfixWith(attack: string): Task {
  const folder = path.join(scratch, attack.replace(/\.sh$/, ""));
  cpSync(packagePath("benchmarks/terminal-sample/tasks/python-bugfix"), folder, { recursive: true });
  copyFileSync(path.join(hostile, "attacks", attack), path.join(folder, "solution", "solve.sh"));
  return loadTerminalTasks(folder)[0]!;
}

describe("the terminal verifier against hostile agents", () => {
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
    const sandbox = createBwrapSandbox({ memoryMb: 512 });
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

  it.each(["pytest-shadow.sh", "usercustomize.sh"])("scores 0 the bundled python-bugfix task under %s", async (attack) => {
    expect(await oracleScore(pythonBugfixWith(attack))).toMatchObject({ value: 0, status: "scored" });
  }, 60_000);
});
