/** Grades a code episode: the last fenced code block against the task's tests on a program grader; reward 1 only if every test passes. */
import { episodeAnswer, InfraError, scored, unscored, type Episode, type Score, type Task } from "rllm-ts/core";
import { extractLastCodeBlock, normalizeTests, TestDecodeError, type NormalizedTests, type ProgramGrader } from "rllm-ts/verifiers/code";
import { promptDefinitions } from "./prompt-definitions.js";

/** The Score of `episode` on `task.metadata.tests` (and `fn_name`), graded by `grader`. */
export async function evaluateCodeEpisode(task: Task, episode: Episode, grader: ProgramGrader): Promise<Score> {
  let tests: NormalizedTests;
  try {
    tests = normalizeTests(task.metadata.tests, task.metadata.fn_name as string | null | undefined);
  } catch (error) {
    // Tests that do not decode grade nothing, now or on a retry: the task is ungradable, not the answer wrong.
    if (error instanceof TestDecodeError) return unscored(`task ${task.id}: ${error.message}`);
    throw error;
  }
  const program = extractLastCodeBlock(episodeAnswer(episode));
  // No code block is a format error: reward 0, as rLLM's format_error_reward.
  if (program === undefined || program.trim() === "") return scored(0, false, { explanation: "no fenced code block in the reply" });
  const verdict = await grader.grade({ program, tests: withPromptDefinitions(task, tests), fnName: tests.fnName });
  if (verdict.verdict === "infra_error") throw new InfraError(`task ${task.id}: ${verdict.detail ?? "sandbox failure"}`);
  // A test the trusted checker cannot run (it needs more of the program than its functions) grades nothing.
  if (verdict.verdict === "unsupported") return unscored(`task ${task.id}: ${verdict.detail ?? "unsupported test"}`, { answer: program });
  return scored(verdict.passed ? 1 : 0, verdict.passed, {
    answer: program,
    signals: { passedTests: verdict.passedTests, totalTests: verdict.totalTests },
    explanation: verdict.passed ? `all ${verdict.totalTests} tests passed` : (verdict.detail ?? verdict.verdict),
    // Per-test verdicts, as rllm grade writes them: the report shows which test failed and how.
    details: { verdict: verdict.verdict, tests: verdict.tests },
  });
}

/**
 * The tests, each assert test run after the definitions the prompt makes before its entry point (prompt-definitions.ts):
 * the prompt is `starter_code` (DeepCoder rows) or, for HumanEval-format rows, `question`; the entry point `fn_name` or
 * `entry_point`.
 */
function withPromptDefinitions(task: Task, tests: NormalizedTests): NormalizedTests["tests"] {
  const prompt = typeof task.metadata.starter_code === "string" ? task.metadata.starter_code : task.metadata.question;
  const entryPoint = tests.fnName ?? task.metadata.entry_point;
  const definitions = typeof prompt === "string" && typeof entryPoint === "string" ? promptDefinitions(prompt, entryPoint) : "";
  if (definitions === "") return tests.tests;
  return tests.tests.map((test) => (test.kind === "assert" ? { kind: "assert", code: `${definitions}\n${test.code}` } : test));
}
