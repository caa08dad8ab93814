/**
 * Grades the state an agent left in a sandbox: uploads the task's tests to /tests only now, runs the test entry as the
 * verifier (the only role that sees /logs/verifier) under the verifier's timeout, then reads the reward.
 *
 * What the reward may come from (docs/terminal-agents.md, "The trusted-reward rule"): nothing left in /logs/verifier
 * before the tests start is read (the command empties it first); the entry is exec'd, so no shell of ours stays for
 * code the tests run to take over; once it ends, every process of the sandbox is killed before the reward is read, so
 * nothing the tests started can write it later. A Terminal-Bench v1 task's reward is its run-tests.sh exit status as
 * the sandbox reports it, never a file the tests' processes could write.
 *
 * Whose failure (docs/concepts.md): a verifier that times out or leaves no readable reward after the agent has acted on
 * the environment is a scored 0 with the reason, since the agent may have caused it (changed the task's files, filled
 * the disk, broken or slowed the test tools). Only when the agent ran nothing is it a grading error (unscored).
 */
import { chmodSync, cpSync, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { SandboxEnvironment } from "rllm-ts/core";
import { readRewardFile } from "./read-reward-file.js";

/** What the verifier needs from the task. */
export interface TerminalVerification {
  taskDir: string;
  /** Entry relative to taskDir: tests/test.sh (Harbor) or run-tests.sh (Terminal-Bench v1, graded by its exit status). */
  testScript: string;
  format: "harbor" | "terminal-bench-v1";
  timeoutSec: number;
  env: Record<string, string>;
  workdir: string;
  /** Whether the agent ran anything in the sandbox: then a verifier failure may be its doing, and is a scored 0. */
  agentActed: boolean;
}

/** The grade: a reward (isCorrect when ≥ 1, as rLLM's shell evaluator), or a grading error counted apart from zeros. */
export interface TerminalGrade {
  reward: number;
  isCorrect: boolean;
  /** Why nothing could grade the untouched environment (the agent ran nothing): unscored. */
  gradingError?: string;
  /** Why the reward is a 0 the tests did not write (they timed out or wrote no readable reward after the agent acted). */
  verifierFailure?: string;
  signals: Record<string, number>;
  /** The last 4,000 characters of the test output, for the log. */
  testOutput: string;
}

const testOutputFile = "/logs/verifier/test-stdout.txt";

// Empties the verifier's folder, dot files included; a pattern that matches nothing stays literal and rm -f skips it.
const emptyVerifierFolder = "rm -rf -- /logs/verifier/* /logs/verifier/.[!.]* /logs/verifier/..?*";

/** Runs the task's tests in `sandbox` and reads the reward. */
export async function verifyTerminalTask(sandbox: SandboxEnvironment, verification: TerminalVerification): Promise<TerminalGrade> {
  const isTerminalBench = verification.format === "terminal-bench-v1";
  await uploadTests(sandbox, verification, isTerminalBench);
  // Harbor's migration turns run-tests.sh's exit status into reward.txt; here the status is taken from the sandbox
  // itself. A Harbor test.sh writes its own reward.
  const entry = isTerminalBench ? "bash /tests/run-tests.sh" : "/tests/test.sh";
  const command = `${emptyVerifierFolder}; exec ${entry} > ${testOutputFile} 2>&1`;
  const result = await sandbox.exec(command, { role: "verifier", timeoutMs: verification.timeoutSec * 1000, env: verification.env, cwd: verification.workdir });
  // Nothing the tests started may outlive them and write the reward after they ended (docker keeps such processes).
  await sandbox.killAll();
  const testOutput = ((await sandbox.readText(testOutputFile)) ?? result.stderr).slice(-4000);
  if (result.timedOut) return failedVerifier(`the verifier timed out after ${verification.timeoutSec} s`, verification.agentActed, testOutput);
  if (isTerminalBench) {
    const reward = result.exitCode === 0 ? 1 : 0;
    return { reward, isCorrect: reward === 1, signals: {}, testOutput };
  }
  const reading = readRewardFile(await sandbox.readText("/logs/verifier/reward.json"), await sandbox.readText("/logs/verifier/reward.txt"));
  if ("error" in reading) return failedVerifier(reading.error, verification.agentActed, testOutput);
  return { reward: reading.reward, isCorrect: reading.reward >= 1, signals: reading.signals, testOutput };
}

/**
 * Copies the tests to /tests from a staging copy whose entry is executable: the verifier sees /tests read-only (bwrap),
 * so the entry cannot be made executable in the sandbox, as Harbor does with a chmod as root.
 */
async function uploadTests(sandbox: SandboxEnvironment, verification: TerminalVerification, isTerminalBench: boolean): Promise<void> {
  const staging = mkdtempSync(path.join(tmpdir(), "rllm-tests-"));
  try {
    const testsDir = path.join(verification.taskDir, "tests");
    if (existsSync(testsDir)) cpSync(testsDir, staging, { recursive: true });
    if (isTerminalBench) cpSync(path.join(verification.taskDir, verification.testScript), path.join(staging, "run-tests.sh"));
    const entry = path.join(staging, isTerminalBench ? "run-tests.sh" : "test.sh");
    if (existsSync(entry)) chmodSync(entry, statSync(entry).mode | 0o555);
    await sandbox.upload(staging, "/tests");
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** A verifier that gave no reward: the agent's 0 once it has acted, else a grading error of the untouched task. */
function failedVerifier(reason: string, agentActed: boolean, testOutput: string): TerminalGrade {
  if (!agentActed) return { reward: 0, isCorrect: false, gradingError: `${reason}, on the environment the agent left untouched`, signals: {}, testOutput };
  return { reward: 0, isCorrect: false, verifierFailure: `${reason} (the agent's changes may have broken the tests)`, signals: { verifierFailed: 1 }, testOutput };
}
