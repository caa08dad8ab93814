/** Which pairwise judge prompt reranks a cookbook's answers, for `rllm eval --rerank` and `rllm train`. */
import type { Cookbook, JudgeKind } from "../core/cookbook.js";

/**
 * The cookbook's own `judgeKind` (a code cookbook, built-in or a user's, says "code"), else "math": every other cookbook
 * ends in a final answer, which the math rubric judges. `rllm rerank` and `rllm serve` see no cookbook and take
 * `--judge-kind` instead.
 */
export function cookbookJudgeKind(cookbook: Pick<Cookbook, "judgeKind">): JudgeKind {
  return cookbook.judgeKind ?? "math";
}
