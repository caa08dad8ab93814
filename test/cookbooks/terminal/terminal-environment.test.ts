/**
 * The terminal environment's grading gate, against a recording fake sandbox: once grading begins, a keystroke batch cut
 * off by the agent's time limit starts none of its remaining commands.
 */
import { describe, expect, it } from "vitest";
import { loadTerminalTasks } from "../../../benchmarks/harbor/load-terminal-tasks.js";
import { createTerminalEnvironment } from "../../../cookbooks/terminal/terminal-environment.js";
import { packagePath } from "../../../src/core/package-root.js";
import { SandboxSpecSchema, type ExecResult, type SandboxEnvironment } from "../../../src/core/sandbox-environment.js";

const helloFile = loadTerminalTasks(packagePath("benchmarks/terminal-sample/tasks")).find((task) => task.id === "rllm/hello-file")!;
const result = (exitCode: number): ExecResult => ({ exitCode, stdout: "", stderr: "", timedOut: false, truncated: false, durationMs: 1 });

describe("terminal environment", () => {
  it("starts no command of a cut-off keystroke batch once grading has begun", async () => {
    const agentCommands: string[] = [];
    let release: (() => void) | undefined;
    const sandbox: SandboxEnvironment = {
      provider: "local",
      spec: SandboxSpecSchema.parse({}),
      async exec(command, options = {}) {
        if (options.role === "verifier") return result(0);
        agentCommands.push(command);
        if (command.includes("tmux")) return result(127); // no tmux: the batch runs as plain commands
        if (command === "sleep 100") await new Promise<void>((resolve) => (release = resolve));
        return result(0);
      },
      upload: async () => {},
      download: async () => {},
      readText: async (file) => (file.endsWith("reward.txt") ? "1" : undefined),
      // The running command ends when the sandbox's processes are killed.
      killAll: async () => release?.(),
      isAlive: () => true,
      close: async () => {},
    };
    const environment = createTerminalEnvironment({ sandbox: { openEnvironment: async () => sandbox }, allowNetwork: false });
    await environment.reset(helloFile, 0);
    const step = environment.step({ kind: "keystrokes", commands: [{ keystrokes: "sleep 100\n", durationSec: 0 }, { keystrokes: "echo late > /app/hello.txt\n", durationSec: 0 }] });
    while (release === undefined) await new Promise((resolve) => setImmediate(resolve));
    const outcome = await environment.finish!();
    await expect(step).rejects.toThrow(/being graded/);
    expect(agentCommands.filter((command) => !command.includes("tmux"))).toEqual(["sleep 100"]);
    expect(outcome.reward).toBe(1);
  });
});
