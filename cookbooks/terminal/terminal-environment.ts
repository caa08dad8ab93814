/**
 * A terminal task as an Environment: `reset` opens the episode's sandbox and prepares the workdir, each `step` runs one
 * command (or one keystroke batch in the episode's terminal) as the agent, `finish` stops whatever the agent still runs
 * and grades the state with the task's tests.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type { Environment, EnvironmentOutcome, EnvironmentStep, Sandbox, Task } from "rllm-ts/core";
import { terminalTaskOf, type TerminalTask } from "rllm-ts/benchmarks/harbor";
import { verifyTerminalTask, type SandboxEnvironment } from "rllm-ts/verifiers/terminal";
import { formatExecResult } from "./format-exec-result.js";
import { openKeystrokeTerminal, type KeystrokeTerminal, type Keystrokes } from "./keystroke-terminal.js";

/** A command for the sandbox, a batch of keystrokes for the episode's terminal (Terminus-2), or the task's own solution (the oracle). */
export type TerminalAction =
  | { kind: "command"; command: string; timeoutMs?: number; env?: Record<string, string>; callId?: string }
  | { kind: "keystrokes"; commands: Keystrokes[] }
  | { kind: "solution" };

/** Where the environment opens its sandbox. */
export interface TerminalEnvironmentOptions {
  /** The run's sandbox: a bubblewrap environment (local) or a container (docker) per episode. */
  sandbox: Pick<Sandbox, "openEnvironment">;
  /** docker: this image for every task instead of the task's own image or Dockerfile. */
  image?: string;
  /** The user's --allow-network: network only where the task also allows it. */
  allowNetwork: boolean;
  /** Per-command limit for agent commands that give none. */
  commandTimeoutMs?: number;
}

// Setup steps (environment/setup.sh) get rLLM's 300 s.
const setupTimeoutMs = 300_000;

/** The environment of one terminal episode. */
export function createTerminalEnvironment(options: TerminalEnvironmentOptions): Environment<string, TerminalAction> {
  let sandbox: SandboxEnvironment | undefined;
  let terminal: TerminalTask | undefined;
  let keystrokeTerminal: KeystrokeTerminal | undefined;
  let isGrading = false;
  // Whether any agent command reached the sandbox: after that, a verifier failure may be the agent's doing.
  let agentActed = false;
  // The agent's commands go through this gate: a step cut off by the agent's time limit may still be running (a
  // keystroke batch's next command), and none of its commands may start once grading has begun.
  const agentExec: Pick<SandboxEnvironment, "exec"> = {
    exec(command, execOptions) {
      if (isGrading) return Promise.reject(new Error("the agent's time is over: its sandbox is being graded"));
      agentActed = true;
      return sandbox!.exec(command, execOptions);
    },
  };
  // One action in the episode's sandbox (the caller has checked that reset ran).
  const runAction = async (current: SandboxEnvironment, terminalTask: TerminalTask, action: TerminalAction): Promise<EnvironmentStep<string>> => {
    if (action.kind === "solution") {
      if (!terminalTask.solutionScript) throw new Error(`task ${terminalTask.taskDir}: no solution script for the oracle`);
      const script = path.join(terminalTask.taskDir, terminalTask.solutionScript);
      agentActed = true;
      await current.upload(path.dirname(script), "/solution");
      const result = await agentExec.exec(`bash /solution/${path.basename(script)}`, {
        env: { DEBIAN_FRONTEND: "noninteractive", ...terminalTask.solutionEnv },
        ...(terminalTask.agentTimeoutSec ? { timeoutMs: terminalTask.agentTimeoutSec * 1000 } : {}),
      });
      return { observation: formatExecResult(result), reward: 0, done: true, info: { exitCode: result.exitCode, timedOut: result.timedOut } };
    }
    if (action.kind === "keystrokes") {
      keystrokeTerminal ??= await openKeystrokeTerminal(agentExec);
      return { observation: await keystrokeTerminal.send(action.commands), reward: 0, done: false, info: { terminal: keystrokeTerminal.kind } };
    }
    const result = await agentExec.exec(action.command, { ...(action.timeoutMs ? { timeoutMs: action.timeoutMs } : {}), ...(action.env ? { env: action.env } : {}) });
    return { observation: formatExecResult(result), reward: 0, done: false, info: { exitCode: result.exitCode, timedOut: result.timedOut, durationMs: Math.round(result.durationMs) } };
  };

  return {
    async reset(task: Task) {
      terminal = terminalTaskOf(task);
      agentActed = false;
      sandbox = await options.sandbox.openEnvironment({
        workdir: terminal.workdir,
        allowNetwork: options.allowNetwork && terminal.allowInternet,
        ...(terminal.cpus ? { cpus: terminal.cpus } : {}),
        ...(terminal.memoryMb ? { memoryMb: terminal.memoryMb } : {}),
        ...(options.commandTimeoutMs ? { commandTimeoutMs: options.commandTimeoutMs } : {}),
        env: terminal.env,
        ...(terminal.image ? { image: terminal.image } : {}),
        ...(terminal.hasDockerfile ? { buildContext: terminal.format === "harbor" ? path.join(terminal.taskDir, "environment") : terminal.taskDir } : {}),
        ...(terminal.buildTimeoutSec ? { buildTimeoutMs: terminal.buildTimeoutSec * 1000 } : {}),
        ...(options.image !== undefined ? { image: options.image, buildContext: undefined } : {}),
      });
      const files = path.join(terminal.taskDir, "environment", "files");
      if (existsSync(files)) await sandbox.upload(files, terminal.workdir);
      const setup = path.join(terminal.taskDir, "environment", "setup.sh");
      if (existsSync(setup)) {
        await sandbox.upload(setup, "/tmp/rllm-setup.sh");
        const result = await sandbox.exec("bash /tmp/rllm-setup.sh && rm -f /tmp/rllm-setup.sh", { timeoutMs: setupTimeoutMs });
        if (result.exitCode !== 0) throw new Error(`task ${task.id}: environment/setup.sh failed: ${formatExecResult(result).slice(-2000)}`);
      }
      return task.instruction as string;
    },
    async step(action) {
      if (!sandbox || !terminal) throw new Error("step before reset");
      try {
        return await runAction(sandbox, terminal, action);
      } catch (error) {
        // The agent can kill its own sandbox (its supervisor, or all of its memory): the episode ends there and what it
        // left is graded, so that is never a way out of a score.
        if (sandbox.isAlive()) throw error;
        return { observation: `[${(error as Error).message}]`, reward: 0, done: true, info: { sandboxDied: true } };
      }
    },
    async finish(): Promise<EnvironmentOutcome> {
      if (!sandbox || !terminal) return { reward: 0, isCorrect: false, gradingError: "the sandbox never started", info: {} };
      // A command still running when the agent's time ran out must not touch the state being graded.
      isGrading = true;
      await sandbox.killAll();
      const grade = await verifyTerminalTask(sandbox, {
        taskDir: terminal.taskDir,
        testScript: terminal.testScript,
        format: terminal.format,
        timeoutSec: terminal.verifierTimeoutSec,
        env: terminal.verifierEnv,
        workdir: terminal.workdir,
        agentActed,
      });
      return {
        reward: grade.reward,
        isCorrect: grade.isCorrect,
        ...(grade.gradingError !== undefined ? { gradingError: grade.gradingError } : {}),
        info: { signals: grade.signals, testOutput: grade.testOutput, ...(grade.verifierFailure !== undefined ? { verifierFailure: grade.verifierFailure } : {}) },
      };
    },
    async close() {
      await sandbox?.close();
    },
  };
}
