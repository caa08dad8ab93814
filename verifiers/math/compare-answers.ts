/** Structural equivalence of two parsed answers: lists, sets, intervals, equations, relations, matrices, choices, text. */
import { compareExpressions, proportionalFactor, type Comparison } from "./compare-expressions.js";
import { compileExpression, evaluateComplex } from "./evaluate-expression.js";
import type { MathPolicy } from "./math-policy.js";
import type { MathValue } from "./parse-answer.js";

type ListValue = Extract<MathValue, { kind: "list" }>;
type RelationValue = Extract<MathValue, { kind: "relation" }>;
type EquationValue = Extract<MathValue, { kind: "equation" }>;

const notEqual = (reason: string): Comparison => ({ equal: false, reason });

/** Whether `predicted` is equivalent to `truth` (structure first, then expressions). */
export function compareValues(truth: MathValue, predicted: MathValue, policy: MathPolicy): Comparison {
  if (truth.kind === "equation" || predicted.kind === "equation") return compareWithEquation(truth, predicted, policy);
  if (truth.kind === "relation" || predicted.kind === "relation") return compareWithRelation(truth, predicted, policy);
  if (truth.kind === "expression" && predicted.kind === "expression") return compareExpressions(truth, predicted, policy);
  if (truth.kind === "list" && predicted.kind === "list") return compareLists(truth, predicted, policy);
  if (truth.kind === "list" && truth.open === "{" && truth.items.length === 1) return compareValues(truth.items[0]!, predicted, policy);
  if (predicted.kind === "list" && predicted.open === "{" && predicted.items.length === 1) {
    return compareValues(truth, predicted.items[0]!, policy);
  }
  if (truth.kind === "union" && predicted.kind === "union") {
    return compareUnordered(truth.items, predicted.items, policy, "union");
  }
  if (truth.kind === "matrix" && predicted.kind === "matrix") return compareMatrices(truth.rows, predicted.rows, policy);
  if (truth.kind === "choice" && predicted.kind === "choice") {
    return truth.letter === predicted.letter ? { equal: true, reason: "same choice" } : notEqual("different choice");
  }
  if (truth.kind === "text" || predicted.kind === "text") return compareText(valueText(truth), valueText(predicted));
  return notEqual(`a ${predicted.kind} against a ${truth.kind}`);
}

function compareText(truth: string | undefined, predicted: string | undefined): Comparison {
  if (truth === undefined || predicted === undefined) return notEqual("text against a structured answer");
  // Words compare without case (`Monday`, `monday`); symbols keep it (`\angle ABC` is not `\angle abc`).
  const isWords = (text: string) => /^[a-zA-Z\s,.'-]+$/.test(text) && (/[a-zA-Z]{3,}/.test(text) || /^no$/i.test(text));
  const ignoreCase = isWords(truth) && isWords(predicted);
  const squash = (text: string) => (ignoreCase ? text.toLowerCase() : text).replace(/[\s\\{}]+/g, "");
  return squash(truth) === squash(predicted) ? { equal: true, reason: "same text" } : notEqual("different text");
}

function valueText(value: MathValue): string | undefined {
  if (value.kind === "text" || value.kind === "expression") return value.text;
  if (value.kind === "choice") return value.letter;
  return undefined;
}

/** Bare lists match bare lists as sets (policy) and `(...)` tuples in order; sets are order-free; brackets must agree. */
function compareLists(truth: ListValue, predicted: ListValue, policy: MathPolicy): Comparison {
  const isSet = truth.open === "{" || predicted.open === "{";
  const isBare = truth.open === "" || predicted.open === "";
  const isUnordered = isSet || (truth.open === "" && predicted.open === "" && policy.unorderedLists);
  if (!isUnordered && truth.items.length !== predicted.items.length) return notEqual("different number of items");
  if (isSet) {
    const other = truth.open === "{" ? predicted : truth;
    if (other.open !== "{" && other.open !== "") return notEqual("a set against a tuple or interval");
    return compareUnordered(truth.items, predicted.items, policy, "set");
  }
  if (truth.open === "" && predicted.open === "") {
    return policy.unorderedLists
      ? compareUnordered(truth.items, predicted.items, policy, "list")
      : compareOrdered(truth.items, predicted.items, policy, "list");
  }
  if (isBare) {
    // A tuple written without its parentheses still matches in order; an interval needs its brackets.
    const bracketed = truth.open === "" ? predicted : truth;
    if (bracketed.open !== "(" || bracketed.close !== ")") return notEqual("an interval against a bare list");
    return compareOrdered(truth.items, predicted.items, policy, "tuple");
  }
  if (truth.open !== predicted.open || truth.close !== predicted.close) return notEqual("different brackets");
  return compareOrdered(truth.items, predicted.items, policy, truth.open === "(" && truth.close === ")" ? "tuple" : "interval");
}

function compareOrdered(truth: MathValue[], predicted: MathValue[], policy: MathPolicy, what: string): Comparison {
  if (truth.length !== predicted.length) return notEqual(`different ${what} length`);
  for (let index = 0; index < truth.length; index += 1) {
    const item = compareValues(truth[index]!, predicted[index]!, policy);
    if (!item.equal) return notEqual(`${what} item ${index + 1}: ${item.reason}`);
  }
  return { equal: true, reason: `same ${what}` };
}

/**
 * Equal-length lists match item for item in any order (`2, 2, 3` is not `2, 3, 3`); when the lengths differ, an item
 * repeated on one side counts once (`(3,17), (3,17), (2,5)` is `(2,5), (3,17)`).
 */
function compareUnordered(truth: MathValue[], predicted: MathValue[], policy: MathPolicy, what: string): Comparison {
  const [truthItems, predictedItems] =
    truth.length === predicted.length ? [truth, predicted] : [distinct(truth, policy), distinct(predicted, policy)];
  if (truthItems.length !== predictedItems.length) return notEqual(`different ${what} size`);
  const used = new Set<number>();
  for (const item of truthItems) {
    const match = predictedItems.findIndex((candidate, index) => !used.has(index) && compareValues(item, candidate, policy).equal);
    if (match === -1) return notEqual(`${what} item missing`);
    used.add(match);
  }
  return { equal: true, reason: `same ${what} (any order)` };
}

/** `items` without those equal to an earlier one. */
function distinct(items: MathValue[], policy: MathPolicy): MathValue[] {
  return items.filter((item, index) => !items.slice(0, index).some((earlier) => compareValues(earlier, item, policy).equal));
}

function compareMatrices(truth: MathValue[][], predicted: MathValue[][], policy: MathPolicy): Comparison {
  if (truth.length !== predicted.length || truth.some((row, index) => row.length !== predicted[index]!.length)) {
    return notEqual("different matrix shape");
  }
  for (let row = 0; row < truth.length; row += 1) {
    const result = compareOrdered(truth[row]!, predicted[row]!, policy, "matrix row");
    if (!result.equal) return result;
  }
  return { equal: true, reason: "same matrix" };
}

const isName = (text: string) => /^[a-zA-Z](?:_\{?[a-zA-Z0-9]+\}?)?$|^\\[a-zA-Z]+$|^[a-zA-Z]\([a-zA-Z]\)$/.test(text.trim());

/** A left side that names a quantity (`x`, `AB`, `|AB|`, `m\angle Q`, `\sin x`, `f(x)`) rather than computing one. */
const isNamedQuantity = (text: string) => !/[-+*/^=<>]|\\(?:frac|cdot|times|sqrt)/.test(text) && /[a-zA-Z]/.test(text);

/**
 * A ground truth's label: a name, or names only, in a tuple, a ratio or a fraction (`(p,q)`, `AB`, `|AB|`, `A:B`,
 * `V_{1}:V_{2}`, `\frac{NO}{BO}`, `f(x)`); no digit outside a subscript and no arithmetic, so `x^2 - 4` is no label.
 */
const isLabel = (text: string) => {
  const withoutSubscripts = text.replace(/_\{?[a-zA-Z0-9]+\}?/g, "");
  return (
    /[a-zA-Z]/.test(withoutSubscripts) &&
    !/\d|[-+*^=<>]|\\(?:cdot|times|sqrt)/.test(withoutSubscripts) &&
    /^[a-zA-Z\s(),:|{}\\]*$/.test(withoutSubscripts.replace(/\\frac|\\angle|\\left|\\right/g, ""))
  );
};

/** `x = 5` vs `5` (assignment), `n = 2, 3` vs `n = 3, 2` (same name), `2x+4y-3=0` vs `y=-x/2+3/4` (proportional). */
function compareWithEquation(truth: MathValue, predicted: MathValue, policy: MathPolicy): Comparison {
  if (truth.kind === "equation" && predicted.kind === "equation") {
    if (squash(truth.leftText) === squash(predicted.leftText)) return compareValues(truth.right, predicted.right, policy);
    const factor = equationFactor(truth, predicted);
    if (factor !== undefined) return { equal: true, reason: "equivalent equations" };
    if (isName(truth.leftText) && isName(predicted.leftText)) return notEqual("different names");
    return notEqual("different equations");
  }
  if (truth.kind === "equation") {
    if (policy.dropVariableAssignment && isLabel(truth.labelText)) return compareValues(truth.right, predicted, policy);
    return notEqual("an expression against an equation");
  }
  // `|AB| = 1`, `m\angle Q = 120` against a value: the right side is the answer; `x^2 - 4 = 0` is not an answer of 0.
  const equation = predicted as EquationValue;
  if (!isNamedQuantity(equation.leftText)) return notEqual("an equation against a value");
  return compareValues(truth, equation.right, policy);
}

/** The c in `lhs₁ - rhs₁ = c·(lhs₂ - rhs₂)`, or undefined. */
function equationFactor(truth: EquationValue, predicted: EquationValue): number | undefined {
  const difference = (equation: EquationValue) =>
    equation.left.kind === "expression" && equation.right.kind === "expression"
      ? compileExpression(`(${equation.left.expression})-(${equation.right.expression})`)
      : undefined;
  const left = difference(truth);
  const right = difference(predicted);
  if (!left || !right) return undefined;
  const symbols = [...new Set([...left.symbols, ...right.symbols])];
  if (symbols.length === 0) return undefined;
  return proportionalFactor(left, right, symbols);
}

/** Relations compare by sign-aware proportionality, or as intervals when a lone variable is bounded by constants. */
function compareWithRelation(truth: MathValue, predicted: MathValue, policy: MathPolicy): Comparison {
  const truthUnion = truth.kind === "relation" ? absoluteBoundToIntervals(truth) : undefined;
  const predictedUnion = predicted.kind === "relation" ? absoluteBoundToIntervals(predicted) : undefined;
  if (truthUnion || predictedUnion) return compareValues(truthUnion ?? truth, predictedUnion ?? predicted, policy);
  const truthInterval = truth.kind === "relation" ? relationToInterval(truth) : truth;
  const predictedInterval = predicted.kind === "relation" ? relationToInterval(predicted) : predicted;
  if (truthInterval && predictedInterval && truthInterval.kind === "list" && predictedInterval.kind === "list") {
    return compareLists(truthInterval, predictedInterval, policy);
  }
  if (truth.kind !== "relation" || predicted.kind !== "relation") return notEqual("a relation against a non-relation");
  if (truth.operators.length !== 1 || predicted.operators.length !== 1) return notEqual("different relations");
  if (truth.operators[0] !== predicted.operators[0]) return notEqual("different relation operators");
  const canonical = (relation: RelationValue) => {
    const [left, right] = relation.sides as [string, string];
    return compileExpression(relation.flipped[0] ? `(${right})-(${left})` : `(${left})-(${right})`);
  };
  const left = canonical(truth);
  const right = canonical(predicted);
  if (!left || !right) return notEqual("unparseable relation");
  const symbols = [...new Set([...left.symbols, ...right.symbols])];
  const factor = symbols.length > 0 ? proportionalFactor(left, right, symbols) : undefined;
  const isEquivalent = factor !== undefined && (truth.operators[0] === "!=" || factor > 0);
  return isEquivalent ? { equal: true, reason: "equivalent relations" } : notEqual("different relations");
}

/**
 * A bound on an absolute value as the intervals it describes: `1 \leq |z| \leq 2` → `[-2, -1] \cup [1, 2]` (a lower
 * bound above 0), `|x| \leq 1` → `[-1, 1]`, `|x| > 1` → `(-\infty, -1) \cup (1, \infty)` (a bound above 0);
 * undefined for any other relation.
 */
function absoluteBoundToIntervals(relation: RelationValue): MathValue | undefined {
  const { sides, operators, flipped } = relation;
  if (operators.includes("!=")) return undefined;
  const absoluteOf = (side: string) => /^abs\(+([a-zA-Z_]\w*)\)+$/.exec(compileExpression(side)?.source.trim() ?? "")?.[1];
  const isPositiveConstant = (side: string) => {
    const compiled = compileExpression(side);
    const value = compiled && compiled.symbols.length === 0 ? evaluateComplex(compiled) : undefined;
    return value !== undefined && value.imaginary === 0 && value.real > 0;
  };
  const bound = (side: string): MathValue => ({ kind: "expression", text: side, expression: side });
  const interval = (open: string, low: string, high: string, close: string): ListValue => ({
    kind: "list",
    open: open as "[" | "(",
    close: close as "]" | ")",
    items: [bound(low), bound(high)],
  });
  if (sides.length === 2) {
    const [left, right] = sides as [string, string];
    const isLeft = absoluteOf(left) !== undefined && isPositiveConstant(right);
    if (!isLeft && !(absoluteOf(right) !== undefined && isPositiveConstant(left))) return undefined;
    const limit = isLeft ? right : left;
    // `|x| < a` (or `a > |x|`) bounds x within ±a; `|x| > a` outside it.
    const isWithin = isLeft !== flipped[0];
    const [open, close] = operators[0] === "<=" ? ["[", "]"] : ["(", ")"];
    if (isWithin) return interval(open, `-(${limit})`, limit, close);
    const [outerClose, outerOpen] = operators[0] === "<=" ? ["]", "["] : [")", "("];
    return { kind: "union", items: [interval("(", "-Infinity", `-(${limit})`, outerClose), interval(outerOpen, limit, "Infinity", ")")] };
  }
  if (sides.length !== 3 || flipped[0] !== flipped[1]) return undefined;
  const variable = absoluteOf(sides[1]!);
  const [low, high] = flipped[0] ? [sides[2]!, sides[0]!] : [sides[0]!, sides[2]!];
  const [lowOperator, highOperator] = flipped[0] ? [operators[1]!, operators[0]!] : [operators[0]!, operators[1]!];
  if (!variable || !isPositiveConstant(low) || compileExpression(high)?.symbols.length !== 0) return undefined;
  const [lowOpen, lowClose] = lowOperator === "<=" ? ["[", "]"] : ["(", ")"];
  const [highOpen, highClose] = highOperator === "<=" ? ["[", "]"] : ["(", ")"];
  return { kind: "union", items: [interval(highOpen, `-(${high})`, `-(${low})`, lowClose), interval(lowOpen, low, high, highClose)] };
}

/** `a < x \leq b` → `(a, b]`, `x > 3` → `(3, \infty)`; undefined when the relation is not of that shape. */
function relationToInterval(relation: RelationValue): ListValue | undefined {
  const lone = (side: string) => {
    const compiled = compileExpression(side);
    return compiled === undefined ? undefined : /^\(?([a-zA-Z_]\w*)\)?$/.exec(compiled.source.trim())?.[1];
  };
  const constant = (side: string) => compileExpression(side)?.symbols.length === 0;
  const bound = (side: string): MathValue => ({ kind: "expression", text: side, expression: side });
  if (relation.operators.includes("!=")) return undefined;
  const { sides, operators, flipped } = relation;
  const closeness = (operator: string) => operator === "<=";
  if (sides.length === 2) {
    const [left, right] = sides as [string, string];
    // Normalise to `variable < constant` or `constant < variable`.
    const variableOnLeft = lone(left) !== undefined && constant(right);
    const variableOnRight = lone(right) !== undefined && constant(left);
    if (!variableOnLeft && !variableOnRight) return undefined;
    const isUpperBound = variableOnLeft !== flipped[0];
    const limit = variableOnLeft ? right : left;
    const inclusive = closeness(operators[0]!);
    return isUpperBound
      ? { kind: "list", open: "(", close: inclusive ? "]" : ")", items: [bound("-Infinity"), bound(limit)] }
      : { kind: "list", open: inclusive ? "[" : "(", close: ")", items: [bound(limit), bound("Infinity")] };
  }
  if (sides.length === 3 && flipped[0] === flipped[1] && lone(sides[1]!) && constant(sides[0]!) && constant(sides[2]!)) {
    const [low, high] = flipped[0] ? [sides[2]!, sides[0]!] : [sides[0]!, sides[2]!];
    const [lowOperator, highOperator] = flipped[0] ? [operators[1]!, operators[0]!] : [operators[0]!, operators[1]!];
    return {
      kind: "list",
      open: closeness(lowOperator) ? "[" : "(",
      close: closeness(highOperator) ? "]" : ")",
      items: [bound(low), bound(high)],
    };
  }
  return undefined;
}

function squash(text: string): string {
  return text.replace(/\s+/g, "");
}
