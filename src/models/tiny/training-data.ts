/**
 * Supervised examples for the tiny model's two skills, drawn from the arith train split only: solving
 * (`7*3=21 12+21=33 \boxed{33}`) and judging a pair of solutions (`<rating_A>10</rating_A><rating_B>1</rating_B>`).
 */
import {
  applyOperator,
  arithSolutionText,
  arithSplitOf,
  checkOperandCount,
  generateArithProblem,
  operationsInOrder,
  parseArithExpression,
  solveArith,
  type ArithProblem,
  type Operator,
} from "../../../benchmarks/arith/index.js";
import { encodeCompactPrompt } from "./chat-template.js";
import { randomIntBetween, type Rng } from "../../core/random.js";
import { END_ID, encodeText, tokenId } from "./tokenizer.js";

/** One training sequence: prompt then completion, with loss weight 1 on completion tokens. */
export interface TrainingExample {
  tokens: number[];
  lossMask: number[];
}

/** A problem drawn from the requested split (rejection sampling on the split hash). */
export function drawProblem(random: Rng, split: "train" | "test"): ArithProblem {
  for (;;) {
    const problem = generateArithProblem(random);
    if (arithSplitOf(problem.expression) === split) return problem;
  }
}

/** A wrong solution of the kinds a small model makes: a slipped step carried on, products out of order, or a miscopied answer. */
export function wrongSolution(problem: ArithProblem, random: Rng): string {
  const { operands, operators } = parseArithExpression(problem.expression);
  const roll = random();
  if (roll < 0.15 && operators.includes("*") && operators.length > 1) {
    const leftToRight = leftToRightSolution(operands, operators);
    if (leftToRight.answer !== problem.answer) return arithSolutionText(leftToRight);
  }
  const delta = smallDelta(random);
  if (roll < 0.3) return `${problem.steps.join(" ")} \\boxed{${problem.answer + delta}}`;
  const stepIndex = randomIntBetween(random, 0, problem.steps.length - 1);
  return arithSolutionText(solveArith(operands, operators, { stepIndex, delta }));
}

function smallDelta(random: Rng): number {
  const size = random() < 0.75 ? randomIntBetween(random, 1, 3) : 10;
  return random() < 0.5 ? -size : size;
}

// Ignores precedence: each operation in reading order.
function leftToRightSolution(operands: number[], operators: Operator[]): ArithProblem {
  checkOperandCount(operands, operators);
  let value = operands[0]!;
  const steps: string[] = [];
  operators.forEach((operator, index) => {
    const right = operands[index + 1]!;
    const result = applyOperator(value, operator, right);
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

/**
 * A solve example: the question's expression, then a solution. With probability `slipRate` the solution has one
 * slipped step (a result off by 1–3, carried on), like a corpus with mistakes in it: the model then puts some
 * probability on slips, so temperature-1 samples are wrong more often than its greedy answer (room for a judge to
 * pick the right sample and for RL to sharpen the policy).
 */
export function solveExample(problem: ArithProblem, random?: Rng, slipRate = 0): TrainingExample {
  const prompt = encodeCompactPrompt({ kind: "solve", expression: problem.expression });
  if (!random || random() >= slipRate) return example(prompt, arithSolutionText(problem));
  const { operands, operators } = parseArithExpression(problem.expression);
  const delta = randomIntBetween(random, 1, 3) * (random() < 0.5 ? -1 : 1);
  return example(prompt, arithSolutionText(solveArith(operands, operators, { stepIndex: randomIntBetween(random, 0, problem.steps.length - 1), delta })));
}

/**
 * How judge examples look. `residues` is what the chat template serves: the two final `\boxed{}` answers in the
 * prompt, and a reply that checks each answer's last digit (see `residueReply`). `answers` (same prompt, the steps
 * re-derived, then ratings) and `chains` (whole solutions in the prompt, ratings only, `<|judge|>` before the
 * expression) are the earlier training phases' formats, kept so the shipped checkpoint can be reproduced.
 */
export type JudgeFormat = "residues" | "answers" | "chains";

/** Share of `residues` candidates that have no readable answer (the template serves them as ""). */
const MISSING_ANSWER_RATE = 0.05;

/** `n` mod 10 in 0..9 (the last digit of a non-negative number; 7 for -13). */
export function residueOf(n: number): number {
  return ((n % 10) + 10) % 10;
}

/** One slipped step of a residue chain: its exact value off by `delta`, carried on to the verdicts. */
export interface ResidueSlip {
  stepIndex: number;
  delta: number;
}

/**
 * The `residues` judge reply: the problem's operations done on last digits, each written as its exact value and then
 * its residue mod 10 (`6*3=18%8 5-8=-3%7`), then each candidate's answer with its residue beside the derived one and a
 * verdict (`A:-16%4/7 no B:-13%7/7 ok`), then the ratings (10 when the residues agree, else 1).
 * Checking the last digit is a necessary condition of correctness (casting out tens, as one casts out nines) and is
 * easier than computing the answer: every operation is on one-digit numbers, which the tiny model does almost
 * without error, while it often slips on the two-digit steps of a full solution; and each token depends on the few
 * just before it. A wrong answer whose last digit happens to be right passes; the judge then rates both alike.
 * With `slip`, one step's value is off and the chain and verdicts follow it, as a careless checker's would.
 */
export function residueReply(expression: string, answerA: string, answerB: string, slip?: ResidueSlip): string {
  const { operands, operators } = parseArithExpression(expression);
  const exactValue = (left: number, operator: Operator, right: number, index: number) =>
    applyOperator(left, operator, right) + (slip?.stepIndex === index ? slip.delta : 0);
  const exactValues: number[] = [];
  const { operations, value } = operationsInOrder(operands.map(residueOf), operators, ({ left, operator, right }, index) => {
    exactValues.push(exactValue(left, operator, right, index));
    return residueOf(exactValues[index]!);
  });
  const steps = operations.map(({ left, operator, right, result }, index) => `${left}${operator}${right}=${exactValues[index]}%${result}`);
  const isInteger = (answer: string) => /^-?\d+$/.test(answer);
  const passes = (answer: string) => isInteger(answer) && residueOf(Number(answer)) === value;
  const verdict = (slot: string, answer: string) =>
    isInteger(answer) ? `${slot}:${answer}%${residueOf(Number(answer))}/${value} ${passes(answer) ? "ok" : "no"}` : `${slot}:? no`;
  return `${steps.join(" ")} ${verdict("A", answerA)} ${verdict("B", answerB)} ${judgeReply(passes(answerA), passes(answerB))}`;
}

/**
 * A judge example: two solutions, each correct with probability ½, and the ratings they deserve. With probability
 * `slipRate` (`residues` only) the reply's chain has one slipped step carried on to its verdicts, like the slipped
 * solve examples: the judge then puts some probability on slips, so its temperature-1 verdicts are wrong more often
 * than its greedy ones, which is the room RL with the joint reward has to sharpen it.
 */
export function judgeExample(problem: ArithProblem, random: Rng, format: JudgeFormat, slipRate = 0): TrainingExample {
  const isCorrectA = random() < 0.5;
  const isCorrectB = random() < 0.5;
  const solution = (isCorrect: boolean) => (isCorrect ? arithSolutionText(problem) : wrongSolution(problem, random));
  const [solutionA, solutionB] = [solution(isCorrectA), solution(isCorrectB)];
  if (format === "chains") {
    const prompt = [JUDGE, ...encodeText(problem.expression), A, ...encodeText(solutionA), B, ...encodeText(solutionB)];
    return example(prompt, judgeReply(isCorrectA, isCorrectB));
  }
  const finalOnly = (text: string) => text.slice(text.lastIndexOf("\\boxed{"));
  if (format === "answers") {
    const prompt = { kind: "judge" as const, expression: problem.expression, solutionA: finalOnly(solutionA), solutionB: finalOnly(solutionB) };
    return example(encodeCompactPrompt(prompt), `${problem.steps.join(" ")} ${judgeReply(isCorrectA, isCorrectB)}`);
  }
  const servedAnswer = (text: string) => (random() < MISSING_ANSWER_RATE ? "" : finalOnly(text));
  const [answerA, answerB] = [servedAnswer(solutionA), servedAnswer(solutionB)];
  const inside = (boxed: string) => boxed.slice("\\boxed{".length, -1);
  const prompt = { kind: "judge" as const, expression: problem.expression, solutionA: answerA, solutionB: answerB };
  // Without slips no random draw is made, so phases 3–5 replay exactly as they ran before judge slips existed.
  const slip = slipRate > 0 && random() < slipRate ? residueSlip(problem, random) : undefined;
  return example(encodeCompactPrompt(prompt), residueReply(problem.expression, inside(answerA), inside(answerB), slip));
}

function residueSlip(problem: ArithProblem, random: Rng): ResidueSlip {
  return { stepIndex: randomIntBetween(random, 0, problem.steps.length - 1), delta: randomIntBetween(random, 1, 3) * (random() < 0.5 ? -1 : 1) };
}

/** Options of a mixed batch: the share of judge examples, their format, and the slip rates of both skills. */
export interface BatchOptions {
  judgeFraction: number;
  judgeFormat: JudgeFormat;
  solveSlipRate?: number;
  judgeSlipRate?: number;
}

/** A batch mixing both skills; `judgeFraction` of the examples are judge examples. */
export function trainingBatch(random: Rng, size: number, options: BatchOptions): TrainingExample[] {
  return Array.from({ length: size }, () => {
    const problem = drawProblem(random, "train");
    if (random() < options.judgeFraction) return judgeExample(problem, random, options.judgeFormat, options.judgeSlipRate);
    // Without slips no random draw is made, so phases 1–2 replay exactly as they ran before slips existed.
    return options.solveSlipRate ? solveExample(problem, random, options.solveSlipRate) : solveExample(problem);
  });
}
