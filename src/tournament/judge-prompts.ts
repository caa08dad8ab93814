/** The judge prompts (paraphrasing V1 §4): pairwise math and code prompts with 1–10 ratings, and a pointwise one. */
import type { JudgeKind } from "../core/cookbook.js";
import type { ChatMessage } from "../core/message.js";

// math: grade the final answer only; code: correct and robust. The kind is core's: a cookbook names its own.
export type { JudgeKind };

const pairRubrics: Record<JudgeKind, string> = {
  math: [
    "Judge only whether each solution's FINAL ANSWER is correct; give no credit for the method or the presentation.",
    "Rating scale: 10 = certainly correct, 8 = very likely correct, 5 = uncertain, 3 = likely incorrect, 1 = certainly incorrect.",
  ].join("\n"),
  code: [
    "Judge whether each program solves the problem correctly on every valid input, within the limits.",
    "If both look correct, prefer the more robust, fault-tolerant one (edge cases, overflow, performance).",
    "Rating scale: 10 = correct and robust, 5 = borderline, 1 = incorrect.",
  ].join("\n"),
};

const pointRubrics: Record<JudgeKind, string> = {
  math: "Judge only whether the FINAL ANSWER is correct. Rating scale: 10 = certainly correct, 8 = very likely correct, 5 = uncertain, 3 = likely incorrect, 1 = certainly incorrect.",
  code: "Judge whether the program is correct on every valid input and robust. Rating scale: 10 = correct and robust, 5 = borderline, 1 = incorrect.",
};

/** Removes `<think>…</think>` blocks so the judge sees each candidate's answer, not its scratch work. */
export function solutionForJudge(text: string): string {
  const stripped = text.replace(/<think>[\s\S]*?<\/think>/g, "").trim();
  return stripped.length > 0 ? stripped : text.trim();
}

/** The pairwise judge prompt: the problem, Solution A, Solution B; reason, then the two rating tags. */
export function pairJudgeMessages(kind: JudgeKind, problem: string, solutionA: string, solutionB: string): ChatMessage[] {
  const content = [
    "You are verifying two candidate solutions to the same problem. They may both be right, both be wrong, or differ.",
    pairRubrics[kind],
    "",
    "## Problem",
    problem,
    "",
    "## Solution A",
    solutionForJudge(solutionA),
    "",
    "## Solution B",
    solutionForJudge(solutionB),
    "",
    "Reason step by step about the correctness of each solution, then end with exactly these two lines:",
    "<rating_A>n</rating_A>",
    "<rating_B>n</rating_B>",
    "where each n is an integer from 1 to 10. Higher rating wins. Equal ratings imply a tie.",
  ].join("\n");
  return [{ role: "user", content }];
}

/** The pointwise judge prompt: one solution, one `<rating>` tag. */
export function pointJudgeMessages(kind: JudgeKind, problem: string, solution: string): ChatMessage[] {
  const content = [
    "You are verifying a candidate solution to a problem.",
    pointRubrics[kind],
    "",
    "## Problem",
    problem,
    "",
    "## Solution",
    solutionForJudge(solution),
    "",
    "Reason step by step, then end with exactly one line: <rating>n</rating> where n is an integer from 1 to 10.",
  ].join("\n");
  return [{ role: "user", content }];
}
