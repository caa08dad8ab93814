/** The `arith` cookbook: one question, one reply with steps and `\boxed{n}`, graded by the math verifier against the integer answer. */
import type { Cookbook } from "../../src/core/cookbook.js";
import { singleTurnFlow } from "../../src/engine/single-turn-flow.js";
import type { Episode } from "../../src/core/episode.js";
import { messageText } from "../../src/core/message.js";
import { gradeMath } from "../../verifiers/math/grade-math.js";

function solverOutput(episode: Episode): string {
  return messageText(String(episode.trajectories[0]?.output ?? ""));
}

// The integer in the last \boxed{}, for maj@k ("" when the reply has none).
function boxedAnswer(text: string): string | undefined {
  const matches = [...text.matchAll(/\\boxed\{([^}]*)\}/g)];
  const last = matches.at(-1)?.[1].trim();
  return last && /^-?\d+$/.test(last) ? String(Number(last)) : undefined;
}

export const arithCookbook: Cookbook = {
  name: "arith",
  description: "Arithmetic with short reasoning then \\boxed{n}; graded by the math verifier (integer match).",
  judgeKind: "math",
  // The question alone: it already asks for steps and \boxed{n}, and the tiny model's template keeps a single user turn.
  flow: singleTurnFlow((task) => [{ role: "user", content: task.instruction }]),
  evaluate(task, episode) {
    const verdict = gradeMath(solverOutput(episode), String(task.metadata.ground_truth ?? ""));
    return {
      reward: verdict.reward,
      isCorrect: verdict.correct,
      answer: verdict.extracted,
      explanation: verdict.reason,
    };
  },
  extractAnswer(_task, episode) {
    return boxedAnswer(solverOutput(episode));
  },
};
