/** The answers `rllm rerank --method majority` votes on: each candidate's `answer`, else one the judge kind can extract. */
import { InputError } from "../core/errors/input-error.js";
import { extractMathAnswer } from "../../verifiers/math/index.js";
import type { JudgeKind } from "./judge-prompts.js";
import { candidateText, type RerankRow } from "./rerank-input.js";

/**
 * One answer per candidate of each row: its `answer` field, else (math) the normalised final answer of its text, so
 * `\boxed{1/2}` and `0.5` vote together. A code candidate has no normal form to extract, so without `answer` it is
 * refused, naming the file and row. A run where no candidate of any row yields an answer is refused too: every pick
 * would be a tie-break.
 */
export function majorityAnswers(file: string, rows: readonly RerankRow[], judgeKind: JudgeKind): Array<Array<string | undefined>> {
  const answers = rows.map((row) =>
    row.candidates.map((candidate, index) => {
      if (typeof candidate !== "string" && candidate.answer !== undefined) return candidate.answer;
      if (judgeKind === "code") {
        throw new InputError(
          `${file}: row "${row.id}": candidate ${index} has no "answer": --method majority with --judge-kind code needs one on every candidate (a program has no final answer to extract)`,
        );
      }
      return extractMathAnswer(candidateText(candidate));
    }),
  );
  if (answers.every((row) => row.every((answer) => answer === undefined))) {
    throw new InputError(
      `${file}: --method majority: no candidate has an "answer" field or a final answer the math normaliser can read (\\boxed{…}, "the answer is …"), so every pick would be a tie-break`,
    );
  }
  return answers;
}
