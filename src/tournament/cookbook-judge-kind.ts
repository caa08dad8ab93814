/** Which pairwise judge prompt reranks a cookbook's answers, for `rllm eval --rerank` and `rllm train`. */
import type { JudgeKind } from "./judge-prompts.js";

// The judge prompt is the reranker's choice, not part of what a cookbook is, so it lives here as one table instead of
// a field every cookbook (and every user's cookbook) would carry. Code cookbooks get the code rubric; every other
// cookbook ends in a final answer, which the math rubric judges. `rllm rerank` and `rllm serve` see no cookbook and
// take `--judge-kind` instead.
const codeCookbooks: ReadonlySet<string> = new Set(["deepcoder", "evalplus"]);

/** "code" for cookbooks whose answers are programs, "math" (judge the final answer) for every other. */
export function cookbookJudgeKind(cookbookName: string): JudgeKind {
  return codeCookbooks.has(cookbookName) ? "code" : "math";
}
