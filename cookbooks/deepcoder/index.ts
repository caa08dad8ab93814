/** The `deepcoder` cookbook: one LiveCodeBench-style prompt, one reply; reward 1 only if the last code block passes every test. */
import { episodeAnswer, InfraError, messageText, scored, unscored, type Cookbook } from "rllm-ts/core";
import { singleTurnFlow } from "rllm-ts/flows";
import { codePool, extractLastCodeBlock, normalizeTests, TestDecodeError, type NormalizedTests } from "rllm-ts/verifiers/code";
import { livecodebenchPrompt, livecodebenchSystemPrompt } from "./livecodebench-prompt.js";

export const deepcoderCookbook: Cookbook = {
  name: "deepcoder",
  description: "Single-turn code generation (LiveCodeBench prompt); the last fenced code block runs in the run's sandbox, reward 1 only if all tests pass.",
  // Its answers are programs: --rerank judges them with the code rubric.
  judgeKind: "code",
  // The run opens the sandbox's program slots as it starts, so the first episode does not wait for them.
  pools: [codePool],
  flow: singleTurnFlow((task) => {
    const question = typeof task.instruction === "string" ? task.instruction : messageText(task.instruction);
    const starterCode = typeof task.metadata.starter_code === "string" ? task.metadata.starter_code : undefined;
    return [
      { role: "system", content: livecodebenchSystemPrompt },
      { role: "user", content: livecodebenchPrompt(question, starterCode) },
    ];
  }),
  async evaluate(task, episode, context) {
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
    // 6 s per test, stopping at the first failure, as DeepCoder's and LiveCodeBench's graders do.
    const grader = (await context.pool(codePool)).grader();
    const verdict = await grader.grade({ program, tests: tests.tests, fnName: tests.fnName });
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
  },
};
