/** Measures the tiny model's two skills on the arith test split: solve accuracy and pairwise judge accuracy. */
import { arithQuestion, arithSolutionText, arithTasks, parseArithExpression, solveArith, type ArithProblem } from "../../../benchmarks/arith/index.js";
import { applyChatTemplate } from "./chat-template.js";
import { createRng } from "../../core/random.js";
import type { SampledChoice } from "../server/served-model.js";
import type { TinyModel } from "./tiny-model.js";
import { wrongSolution } from "./training-data.js";

/** The integer inside the last `\boxed{...}`, if any. */
export function boxedInteger(text: string): number | undefined {
  const matches = [...text.matchAll(/\\boxed\{\s*(-?\d+)\s*\}/g)];
  const last = matches.at(-1);
  return last ? Number(last[1]) : undefined;
}

/** Both ratings of a judge reply, if well formed. */
export function parseRatings(text: string): { ratingA: number; ratingB: number } | undefined {
  const ratingA = /<rating_A>\s*(\d+)\s*<\/rating_A>/.exec(text);
  const ratingB = /<rating_B>\s*(\d+)\s*<\/rating_B>/.exec(text);
  return ratingA && ratingB ? { ratingA: Number(ratingA[1]), ratingB: Number(ratingB[1]) } : undefined;
}

export interface TinyModelMetrics {
  problems: number;
  temperature: number;
  /** Share of test problems answered correctly (one sample each). */
  arithAccuracy: number;
  /** The same with greedy decoding: above `arithAccuracy` by the probability the model puts on slips. */
  greedyArithAccuracy: number;
  /** Share of (correct, wrong) pairs where the judge rates the correct one higher; ties count ½. Synthetic wrong solutions. */
  judgePairwiseAccuracy: number;
  /** The same on pairs of the model's own solutions (one right, one wrong), when such pairs exist. */
  judgeOwnPairAccuracy: number | null;
  ownPairs: number;
}

/**
 * On the first `problems` tasks of the arith test split: samples two solutions per problem (the first counts for
 * accuracy), and judges one synthetic (right, wrong) pair and, when the two samples disagree, the model's own pair;
 * the right solution sits in slot A on every other problem.
 */
export async function evaluateTinyModel(model: TinyModel, options: { problems: number; temperature: number; seed: number }): Promise<TinyModelMetrics> {
  const random = createRng(options.seed);
  const problems: ArithProblem[] = arithTasks("test")
    .slice(0, options.problems)
    .map((task) => {
      const { operands, operators } = parseArithExpression(String(task.metadata.expression));
      return solveArith(operands, operators);
    });
  const sampling = { n: 2, temperature: options.temperature, topP: 1, maxTokens: 60, stop: [], topLogprobs: 0 };
  let correct = 0;
  let greedyCorrect = 0;
  let synthetic = 0;
  let own = 0;
  let ownPairs = 0;
  for (const [index, problem] of problems.entries()) {
    const solveIds = applyChatTemplate([{ role: "user", content: arithQuestion(problem.expression) }]);
    const answers = await model.generate(solveIds, { ...sampling, seed: options.seed + index });
    const first = choiceAt(answers, 0);
    const second = choiceAt(answers, 1);
    const isFirstRight = boxedInteger(first.text) === problem.answer;
    const isSecondRight = boxedInteger(second.text) === problem.answer;
    if (isFirstRight) correct += 1;
    const greedy = choiceAt(await model.generate(solveIds, { ...sampling, n: 1, temperature: 0 }), 0);
    if (boxedInteger(greedy.text) === problem.answer) greedyCorrect += 1;
    synthetic += await judgeOrder(model, problem, arithSolutionText(problem), wrongSolution(problem, random), index % 2 === 0, options, index);
    if (isFirstRight !== isSecondRight) {
      const [right, wrong] = isFirstRight ? [first.text, second.text] : [second.text, first.text];
      own += await judgeOrder(model, problem, right, wrong, index % 2 === 1, options, index + 1_000_000);
      ownPairs += 1;
    }
  }
  return {
    problems: problems.length,
    temperature: options.temperature,
    arithAccuracy: correct / problems.length,
    greedyArithAccuracy: greedyCorrect / problems.length,
    judgePairwiseAccuracy: synthetic / problems.length,
    judgeOwnPairAccuracy: ownPairs > 0 ? own / ownPairs : null,
    ownPairs,
  };
}

// 1 when the correct solution gets the higher rating, ½ on a tie or a malformed reply, 0 otherwise.
async function judgeOrder(model: TinyModel, problem: ArithProblem, right: string, wrong: string, rightFirst: boolean, options: { temperature: number; seed: number }, salt: number): Promise<number> {
  const [solutionA, solutionB] = rightFirst ? [right, wrong] : [wrong, right];
  const prompt = judgePromptText(problem.expression, solutionA, solutionB);
  const replies = await model.generate(applyChatTemplate([{ role: "user", content: prompt }]), {
    n: 1, temperature: options.temperature, topP: 1, maxTokens: 72, stop: [], topLogprobs: 0, seed: options.seed + salt,
  });
  const reply = choiceAt(replies, 0);
  const ratings = parseRatings(reply.text);
  if (!ratings || ratings.ratingA === ratings.ratingB) return 0.5;
  return ratings.ratingA > ratings.ratingB === rightFirst ? 1 : 0;
}

/** A pairwise judge prompt in the V1 math shape (the tiny model's template keeps only the problem and the two solutions). */
export function judgePromptText(expression: string, solutionA: string, solutionB: string): string {
  return [
    `Problem: ${arithQuestion(expression)}`,
    `Solution A:\n${solutionA}`,
    `Solution B:\n${solutionB}`,
    "Grade only the final answers. Rate each solution from 1 (certainly incorrect) to 10 (certainly correct) as <rating_A>n</rating_A><rating_B>n</rating_B>.",
  ].join("\n\n");
}

// The model returns one choice per requested sample; a missing one is a sampler bug, so say so rather than read undefined.
function choiceAt(choices: readonly SampledChoice[], index: number): SampledChoice {
  const choice = choices[index];
  if (!choice) throw new Error(`The tiny model returned ${choices.length} choices; choice ${index} was asked for`);
  return choice;
}
