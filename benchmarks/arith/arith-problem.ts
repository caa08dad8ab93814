/** Synthetic arithmetic problems: a seeded generator, the step-by-step solution, and the split each problem belongs to. */
import { randomIntBetween, type Rng } from "rllm-ts/core";

export interface ArithProblem {
  /** The expression without spaces, e.g. `12+7*3`. */
  expression: string;
  /** One binary operation per step, products first, e.g. [`7*3=21`, `12+21=33`]. */
  steps: string[];
  answer: number;
}

export type Operator = "+" | "-" | "*";

/** One problem of 2 or 3 one-digit operands (a product's right operand is 2..9), sized for a model trained in minutes on a CPU. */
export function generateArithProblem(random: Rng): ArithProblem {
  const operandCount = random() < 0.5 ? 2 : 3;
  const operands = [randomIntBetween(random, 1, 9)];
  const operators: Operator[] = [];
  for (let index = 1; index < operandCount; index++) {
    const roll = random();
    const operator: Operator = roll < 0.38 ? "+" : roll < 0.7 ? "-" : "*";
    operators.push(operator);
    operands.push(operator === "*" ? randomIntBetween(random, 2, 9) : randomIntBetween(random, 1, 9));
  }
  return solveArith(operands, operators);
}

/** A deliberate mistake: add `delta` to the result of step `stepIndex` and carry the wrong value on. */
export interface ArithSlip {
  stepIndex: number;
  delta: number;
}

/** One binary operation of a solution, in the order it is done. */
export interface ArithOperation {
  left: number;
  operator: Operator;
  right: number;
  result: number;
}

/** Throws unless there is one more operand than operators, the shape every expression has. */
export function checkOperandCount(operands: readonly number[], operators: readonly Operator[]): void {
  if (operands.length !== operators.length + 1) {
    throw new Error(`${operators.length} operators need ${operators.length + 1} operands, not ${operands.length}`);
  }
}

/**
 * Does the operations of `operands` joined by `operators`, products first, then sums left to right; `combine` gives
 * each result (the exact value, a slipped one, or a residue), which later operations then use.
 */
export function operationsInOrder(
  operands: number[],
  operators: Operator[],
  combine: (operation: Omit<ArithOperation, "result">, index: number) => number,
): { operations: ArithOperation[]; value: number } {
  checkOperandCount(operands, operators);
  // values keeps one more entry than pending: each step splices two values into one and drops one operator.
  const values = [...operands];
  const pending = [...operators];
  const operations: ArithOperation[] = [];
  for (const pass of [["*"], ["+", "-"]]) {
    let index = 0;
    while (index < pending.length) {
      const operator = pending[index]!;
      if (!pass.includes(operator)) {
        index++;
        continue;
      }
      const operation = { left: values[index]!, operator, right: values[index + 1]! };
      const result = combine(operation, operations.length);
      operations.push({ ...operation, result });
      values.splice(index, 2, result);
      pending.splice(index, 1);
    }
  }
  return { operations, value: values[0]! };
}

/** The exact result of one operation. */
export function applyOperator(left: number, operator: Operator, right: number): number {
  return operator === "*" ? left * right : operator === "+" ? left + right : left - right;
}

/** Solves `operands` joined by `operators`, products first, then sums left to right, recording each step. */
export function solveArith(operands: number[], operators: Operator[], slip?: ArithSlip): ArithProblem {
  const expression = operands.map((operand, index) => (operators[index - 1] ?? "") + operand).join("");
  const { operations, value } = operationsInOrder(operands, operators, ({ left, operator, right }, index) => {
    const exact = applyOperator(left, operator, right);
    return slip?.stepIndex === index ? exact + slip.delta : exact;
  });
  const steps = operations.map(({ left, operator, right, result }) => `${left}${operator}${right}=${result}`);
  return { expression, steps, answer: value };
}

/** The reference completion the model is trained to write: the steps, then `\boxed{answer}`. */
export function arithSolutionText(problem: ArithProblem): string {
  return `${problem.steps.join(" ")} \\boxed{${problem.answer}}`;
}

/** The question a solver sees; the tiny model's chat template recognises this exact phrasing. */
export function arithQuestion(expression: string): string {
  return `What is ${expression}? Show each step, then give the final answer as \\boxed{n}.`;
}

/** Split of an expression by a hash of its text, so the train and test splits can never share a problem. */
export function arithSplitOf(expression: string): "train" | "test" {
  let hash = 2166136261;
  for (let index = 0; index < expression.length; index++) {
    hash = Math.imul(hash ^ expression.charCodeAt(index), 16777619) >>> 0;
  }
  return hash % 8 === 0 ? "test" : "train";
}

/** Operands and operators of an expression written by `generateArithProblem` (e.g. `12-3*4`). */
export function parseArithExpression(expression: string): { operands: number[]; operators: Operator[] } {
  const parts = expression.match(/\d+|[-+*]/g) ?? [];
  return {
    operands: parts.filter((_, index) => index % 2 === 0).map(Number),
    operators: parts.filter((_, index) => index % 2 === 1) as Operator[],
  };
}
