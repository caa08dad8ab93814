/** The `arith` cookbook: one question, one reply with steps and `\boxed{n}`, graded by the math verifier against the integer answer. */
import { episodeAnswer, packagePath, scored, unscored, type Cookbook } from "rllm-ts/core";
import { singleTurnFlow } from "rllm-ts/flows";
import { gradeMath } from "rllm-ts/verifiers/math";

// The integer in the last \boxed{}, for maj@k ("" when the reply has none).
function boxedAnswer(text: string): string | undefined {
  const matches = [...text.matchAll(/\\boxed\{([^}]*)\}/g)];
  const last = matches.at(-1)?.[1]?.trim();
  return last && /^-?\d+$/.test(last) ? String(Number(last)) : undefined;
}

export const arithCookbook: Cookbook = {
  name: "arith",
  description: "Arithmetic with short reasoning then \\boxed{n}; graded by the math verifier (integer match).",
  // The question alone: it already asks for steps and \boxed{n}, and the tiny model's template keeps a single user turn.
  flow: singleTurnFlow((task) => [{ role: "user", content: task.instruction }]),
  evaluate(task, episode) {
    const groundTruth = String(task.metadata.ground_truth ?? "");
    if (groundTruth.trim() === "") return unscored(`task ${task.id} has no ground_truth`);
    const verdict = gradeMath(episodeAnswer(episode), groundTruth);
    return scored(verdict.reward, verdict.correct, { ...(verdict.extracted !== undefined ? { answer: verdict.extracted } : {}), explanation: verdict.reason });
  },
  extractAnswer(_task, episode) {
    return boxedAnswer(episodeAnswer(episode));
  },
  // `rllm train arith` with no --config trains with these settings (shipped beside it in the package).
  trainConfig: packagePath("cookbooks", "arith", "train.json"),
};
