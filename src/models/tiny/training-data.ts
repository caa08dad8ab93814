/**
 * Supervised examples for the tiny model's two skills, drawn from the arith train split only: solving
 * (`7*3=21 12+21=33 \boxed{33}`) and judging a pair of solutions (`<rating_A>10</rating_A><rating_B>1</rating_B>`).
 */
import {
  arithSolutionText,
  arithSplitOf,
  generateArithProblem,
  parseArithExpression,
  solveArith,
  type ArithProblem,
  type Operator,
} from "../../../benchmarks/arith/arith-problem.js";
import { encodeCompactPrompt } from "./chat-template.js";
import { randomInt, type Random } from "./random.js";
import { END_ID, encodeText, tokenId } from "./tokenizer.js";

/** One training sequence: prompt then completion, with loss weight 1 on completion tokens. */
export interface TrainingExample {
  tokens: number[];
  lossMask: number[];
}

/** A problem drawn from the requested split (rejection sampling on the split hash). */
export function drawProblem(random: Random, split: "train" | "test"): ArithProblem {
  for (;;) {
    const problem = generateArithProblem(random);
    if (arithSplitOf(problem.expression) === split) return problem;
  }
}

/** A wrong solution of the kinds a small model makes: a slipped step carried on, products out of order, or a miscopied answer. */
export function wrongSolution(problem: ArithProblem, random: Random): string {
  const { operands, operators } = parseArithExpression(problem.expression);
  const roll = random();
  if (roll < 0.15 && operators.includes("*") && operators.length > 1) {
    const leftToRight = leftToRightSolution(operands, operators);
    if (leftToRight.answer !== problem.answer) return arithSolutionText(leftToRight);
  }
  const delta = smallDelta(random);
  if (roll < 0.3) return `${problem.steps.join(" ")} \\boxed{${problem.answer + delta}}`;
  const stepIndex = randomInt(random, 0, problem.steps.length - 1);
  return arithSolutionText(solveArith(operands, operators, { stepIndex, delta }));
}

function smallDelta(random: Random): number {
  const size = random() < 0.75 ? randomInt(random, 1, 3) : 10;
  return random() < 0.5 ? -size : size;
}

// Ignores precedence: each operation in reading order.
function leftToRightSolution(operands: number[], operators: Operator[]): ArithProblem {
  let value = operands[0];
  const steps: string[] = [];
  operators.forEach((operator, index) => {
    const right = operands[index + 1];
    const result = operator === "*" ? value * right : operator === "+" ? value + right : value - right;
    steps.push(`${value}${operator}${right}=${result}`);
    value = result;
  });
  return { expression: "", steps, answer: value };
}

/** The judge's target reply: 10 for a correct solution, 1 for a wrong one. */
export function judgeReply(isCorrectA: boolean, isCorrectB: boolean): string {
  return `<rating_A>${isCorrectA ? 10 : 1}</rating_A><rating_B>${isCorrectB ? 10 : 1}</rating_B>`;
}

const USER = tokenId("<|user|>");
const JUDGE = tokenId("<|judge|>");
const A = tokenId("<|A|>");
const B = tokenId("<|B|>");
const ASSISTANT = tokenId("<|assistant|>");

function example(promptContent: number[], completion: string): TrainingExample {
  const prompt = [USER, ...promptContent, END_ID, ASSISTANT];
  const reply = [...encodeText(completion), END_ID];
  return { tokens: [...prompt, ...reply], lossMask: [...prompt.map(() => 0), ...reply.map(() => 1)] };
}

/** A solve example: the question's expression, then the reference solution. */
export function solveExample(problem: ArithProblem): TrainingExample {
  return example(encodeCompactPrompt({ kind: "solve", expression: problem.expression }), arithSolutionText(problem));
}

/**
 * How judge examples look. `answers` is what the chat template serves: the two final `\boxed{}` answers in the
 * prompt, and a reply that re-derives the answer in steps before rating. `chains` (whole solutions in the prompt,
 * ratings only, `<|judge|>` before the expression) is the first training phase's format, kept so the shipped
 * checkpoint can be reproduced.
 */
export type JudgeFormat = "answers" | "chains";

/** A judge example: two solutions, each correct with probability ½, and the ratings they deserve. */
export function judgeExample(problem: ArithProblem, random: Random, format: JudgeFormat): TrainingExample {
  const isCorrectA = random() < 0.5;
  const isCorrectB = random() < 0.5;
  const solution = (isCorrect: boolean) => (isCorrect ? arithSolutionText(problem) : wrongSolution(problem, random));
  const [solutionA, solutionB] = [solution(isCorrectA), solution(isCorrectB)];
  const finalOnly = (text: string) => text.slice(text.lastIndexOf("\\boxed{"));
  const reply = judgeReply(isCorrectA, isCorrectB);
  if (format === "chains") {
    const prompt = [JUDGE, ...encodeText(problem.expression), A, ...encodeText(solutionA), B, ...encodeText(solutionB)];
    return example(prompt, reply);
  }
  const prompt = { kind: "judge" as const, expression: problem.expression, solutionA: finalOnly(solutionA), solutionB: finalOnly(solutionB) };
  return example(encodeCompactPrompt(prompt), `${problem.steps.join(" ")} ${reply}`);
}

/** A batch mixing both skills; `judgeFraction` of the examples are judge examples. */
export function trainingBatch(random: Random, size: number, judgeFraction: number, judgeFormat: JudgeFormat): TrainingExample[] {
  return Array.from({ length: size }, () => {
    const problem = drawProblem(random, "train");
    return random() < judgeFraction ? judgeExample(problem, random, judgeFormat) : solveExample(problem);
  });
}
