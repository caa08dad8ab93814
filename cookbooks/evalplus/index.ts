/**
 * The `evalplus` cookbook (HumanEval, HumanEval+, MBPP+): EvalPlus's chat prompt, one reply; the last fenced code block
 * is graded by the code verifier against the benchmark's own test code (check(), EvalPlus's assertion), reward 1 only
 * if every test passes.
 */
import { InfraError, type Cookbook } from "rllm-ts/core";
import { singleTurnFlow } from "rllm-ts/flows";
import { codePool } from "rllm-ts/verifiers/code";
import { evaluateCodeEpisode } from "../deepcoder/evaluate-code-episode.js";
import { evalplusPrompt } from "./evalplus-prompt.js";
import { requireNumpy } from "./require-numpy.js";

// The whole check() is one test here, so it gets EvalPlus's cap for a task (EVALPLUS_TIMEOUT_PER_TASK, 60 s), not a per-input limit.
const evalplusTimeoutSeconds = 60;

/** Whether a task's test code imports numpy (EvalPlus's does; HumanEval's check() does not). */
function needsNumpy(tests: unknown): boolean {
  return Array.isArray(tests) && tests.some((test) => typeof test === "object" && test !== null && /^\s*import numpy/m.test(String((test as { code?: unknown }).code)));
}

export const evalplusCookbook: Cookbook = {
  name: "evalplus",
  description: "EvalPlus's prompt for HumanEval(+)/MBPP+; the last code block runs in the run's sandbox against the benchmark's check() or assertion, reward 1 only if all pass.",
  // Its answers are programs: --rerank judges them with the code rubric.
  judgeKind: "code",
  // The run opens the sandbox's program slots as it starts.
  pools: [codePool],
  flow: singleTurnFlow((task) => [{ role: "user", content: evalplusPrompt(typeof task.instruction === "string" ? task.instruction : "") }]),
  async evaluate(task, episode, context) {
    const pool = await context.pool(codePool);
    const grader = pool.grader({ timeoutSeconds: evalplusTimeoutSeconds });
    if (needsNumpy(task.metadata.tests)) {
      try {
        await requireNumpy(pool);
      } catch (error) {
        throw error instanceof InfraError ? new InfraError(`task ${task.id}: ${error.message}`) : error;
      }
    }
    return evaluateCodeEpisode(task, episode, grader);
  },
};
