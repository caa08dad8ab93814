/**
 * Grades the state an agent left in a sandbox: uploads the task's tests to /tests only now, runs the test entry as the
 * verifier (the only role that sees /logs/verifier) under the verifier's timeout, then reads the reward file.
 *
 * Whose failure (docs/concepts.md): a verifier that times out or leaves no readable reward after the agent has acted on
 * the environment is a scored 0 with the reason, since the agent may have caused it (changed the task's files, filled
 * the disk, broken or slowed the test tools). Only when the agent ran nothing is it a grading error (unscored).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type { Sandbox } from "rllm-ts/core";
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

/** Runs the task's tests in `sandbox` and reads the reward. */
export async function verifyTerminalTask(sandbox: Sandbox, verification: TerminalVerification): Promise<TerminalGrade> {
  const testsDir = path.join(verification.taskDir, "tests");
  if (existsSync(testsDir)) await sandbox.upload(testsDir, "/tests");
  const isTerminalBench = verification.format === "terminal-bench-v1";
  if (isTerminalBench) await sandbox.upload(path.join(verification.taskDir, verification.testScript), "/tests/run-tests.sh");
  // Harbor's migration turns run-tests.sh's exit status into reward.txt; a Harbor test.sh writes its own reward.
  const command = isTerminalBench
    ? `bash /tests/run-tests.sh > ${testOutputFile} 2>&1; if [ $? -eq 0 ]; then echo 1; else echo 0; fi > /logs/verifier/reward.txt`
    : `chmod +x /tests/test.sh && /tests/test.sh > ${testOutputFile} 2>&1`;
  const result = await sandbox.exec(command, { role: "verifier", timeoutMs: verification.timeoutSec * 1000, env: verification.env, cwd: verification.workdir });
  const testOutput = ((await sandbox.readText(testOutputFile)) ?? result.stderr).slice(-4000);
  if (result.timedOut) return failedVerifier(`the verifier timed out after ${verification.timeoutSec} s`, verification.agentActed, testOutput);
  const reading = readRewardFile(await sandbox.readText("/logs/verifier/reward.json"), await sandbox.readText("/logs/verifier/reward.txt"));
  if ("error" in reading) return failedVerifier(reading.error, verification.agentActed, testOutput);
  return { reward: reading.reward, isCorrect: reading.reward >= 1, signals: reading.signals, testOutput };
}

/** A verifier that gave no reward: the agent's 0 once it has acted, else a grading error of the untouched task. */
function failedVerifier(reason: string, agentActed: boolean, testOutput: string): TerminalGrade {
  if (!agentActed) return { reward: 0, isCorrect: false, gradingError: `${reason}, on the environment the agent left untouched`, signals: {}, testOutput };
  return { reward: 0, isCorrect: false, verifierFailure: `${reason} (the agent's changes may have broken the tests)`, signals: { verifierFailed: 1 }, testOutput };
}
