/**
 * The `--filter` language of `rllm dataset from-eval`: a tiny recursive-descent parser for expressions over per-task
 * statistics, such as `0 < avg < 1` or `pass@4 >= 0.5 and not tokens > 2000`. Precedence, loosest first: `or`,
 * `and`, `not`, comparison chains (`a < b <= c` means `a < b and b <= c`), then numbers, names and parentheses.
 */
import { InputError } from "../../core/errors/input-error.js";

/** A comparison operator of a chain. */
export type ComparisonOperator = "<" | "<=" | ">" | ">=" | "==" | "!=";

/** A parsed expression; `start`/`end` are character offsets into the source, for messages. */
export type FilterNode = { start: number; end: number } & (
  | { kind: "number"; value: number }
  | { kind: "name"; name: string }
  | { kind: "not"; operand: FilterNode }
  | { kind: "and" | "or"; left: FilterNode; right: FilterNode }
  | { kind: "compare"; operands: FilterNode[]; operators: ComparisonOperator[] }
);

/** A bad filter expression: the reason and the offset of the offending character, shown with a caret under it. */
export class FilterSyntaxError extends InputError {
  constructor(
    readonly expression: string,
    readonly position: number,
    readonly reason: string,
  ) {
    super(`--filter: ${reason}\n  ${expression}\n  ${" ".repeat(position)}^`);
    this.name = "FilterSyntaxError";
  }
}

interface Token {
  kind: "number" | "name" | "operator" | "open" | "close" | "keyword" | "end";
  text: string;
  start: number;
}

const KEYWORDS = new Set(["and", "or", "not"]);
const OPERATORS: readonly ComparisonOperator[] = ["<=", ">=", "==", "!=", "<", ">"];
// Symbols people type from other languages, with the word this language uses instead.
const FOREIGN_SYMBOLS: Record<string, string> = { "&&": "and", "||": "or", "!": "not", "=": "==" };

function tokenize(expression: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < expression.length) {
    const rest = expression.slice(index);
    const space = /^\s+/.exec(rest);
    if (space) {
      index += space[0].length;
      continue;
    }
    const number = /^(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?/.exec(rest);
    const name = /^[A-Za-z_][A-Za-z0-9_.]*(@\d+)?/.exec(rest);
    const operator = OPERATORS.find((candidate) => rest.startsWith(candidate));
    if (number) {
      if (/^[A-Za-z_@]/.test(rest.slice(number[0].length))) throw new FilterSyntaxError(expression, index + number[0].length, "a number runs into a name");
      tokens.push({ kind: "number", text: number[0], start: index });
    } else if (name) {
      tokens.push({ kind: KEYWORDS.has(name[0]) ? "keyword" : "name", text: name[0], start: index });
    } else if (operator) {
      tokens.push({ kind: "operator", text: operator, start: index });
    } else if (rest[0] === "(" || rest[0] === ")") {
      tokens.push({ kind: rest[0] === "(" ? "open" : "close", text: rest[0], start: index });
    } else {
      const symbol = Object.keys(FOREIGN_SYMBOLS).find((candidate) => rest.startsWith(candidate));
      const hint = symbol ? `: write "${FOREIGN_SYMBOLS[symbol]}" instead of "${symbol}"` : "";
      throw new FilterSyntaxError(expression, index, `unexpected character "${rest[0]}"${hint}`);
    }
    index += tokens.at(-1)!.text.length;
  }
  tokens.push({ kind: "end", text: "", start: expression.length });
  return tokens;
}

/** Parses a filter expression; a FilterSyntaxError points at the first character that does not fit. */
export function parseFilterExpression(expression: string): FilterNode {
  const tokens = tokenize(expression);
  let position = 0;
  const peek = () => tokens[position]!;
  const next = () => tokens[position++]!;
  const fail = (token: Token, reason: string): never => {
    throw new FilterSyntaxError(expression, token.start, reason);
  };
  const describe = (token: Token) => (token.kind === "end" ? "the end of the expression" : `"${token.text}"`);

  function parseOr(): FilterNode {
    let left = parseAnd();
    while (peek().kind === "keyword" && peek().text === "or") {
      next();
      const right = parseAnd();
      left = { kind: "or", left, right, start: left.start, end: right.end };
    }
    return left;
  }
  function parseAnd(): FilterNode {
    let left = parseNot();
    while (peek().kind === "keyword" && peek().text === "and") {
      next();
      const right = parseNot();
      left = { kind: "and", left, right, start: left.start, end: right.end };
    }
    return left;
  }
  function parseNot(): FilterNode {
    const token = peek();
    if (token.kind === "keyword" && token.text === "not") {
      next();
      const operand = parseNot();
      return { kind: "not", operand, start: token.start, end: operand.end };
    }
    return parseComparison();
  }
  function parseComparison(): FilterNode {
    const first = parsePrimary();
    const operands = [first];
    const operators: ComparisonOperator[] = [];
    while (peek().kind === "operator") {
      operators.push(next().text as ComparisonOperator);
      operands.push(parsePrimary());
    }
    if (operators.length === 0) return first;
    return { kind: "compare", operands, operators, start: first.start, end: operands.at(-1)!.end };
  }
  function parsePrimary(): FilterNode {
    const token = next();
    const end = token.start + token.text.length;
    if (token.kind === "number") return { kind: "number", value: Number(token.text), start: token.start, end };
    if (token.kind === "name") return { kind: "name", name: token.text, start: token.start, end };
    if (token.kind === "open") {
      const inner = parseOr();
      const close = next();
      if (close.kind !== "close") fail(close, `expected ")" but found ${describe(close)}`);
      return { ...inner, start: token.start, end: close.start + 1 };
    }
    return fail(token, `expected a number, a name or "(" but found ${describe(token)}`);
  }

  const tree = parseOr();
  if (peek().kind !== "end") fail(peek(), `expected "and", "or", a comparison or the end but found ${describe(peek())}`);
  return tree;
}

/** Every name the expression reads, with its offset (to check them against the statistics a run has). */
export function filterNames(node: FilterNode): { name: string; start: number }[] {
  switch (node.kind) {
    case "number":
      return [];
    case "name":
      return [{ name: node.name, start: node.start }];
    case "not":
      return filterNames(node.operand);
    case "and":
    case "or":
      return [...filterNames(node.left), ...filterNames(node.right)];
    case "compare":
      return node.operands.flatMap(filterNames);
  }
}

/** The top-level `and` terms of an expression (the whole expression when it is not an `and`). */
export function filterConjuncts(node: FilterNode): FilterNode[] {
  return node.kind === "and" ? [...filterConjuncts(node.left), ...filterConjuncts(node.right)] : [node];
}

/**
 * The expression's value for one task: `lookup` gives each name's number (NaN when the task lacks it, e.g. pass@8
 * over 4 attempts, so every comparison with it is false). A bare number or name is true when it is not 0.
 */
export function evaluateFilter(node: FilterNode, lookup: (name: string) => number): boolean {
  return truthy(nodeValue(node, lookup));
}

function truthy(value: number | boolean): boolean {
  return typeof value === "boolean" ? value : value !== 0 && !Number.isNaN(value);
}

function nodeValue(node: FilterNode, lookup: (name: string) => number): number | boolean {
  switch (node.kind) {
    case "number":
      return node.value;
    case "name":
      return lookup(node.name);
    case "not":
      return !truthy(nodeValue(node.operand, lookup));
    case "and":
      return truthy(nodeValue(node.left, lookup)) && truthy(nodeValue(node.right, lookup));
    case "or":
      return truthy(nodeValue(node.left, lookup)) || truthy(nodeValue(node.right, lookup));
    case "compare": {
      const values = node.operands.map((operand) => Number(nodeValue(operand, lookup)));
      return node.operators.every((operator, index) => compare(values[index]!, operator, values[index + 1]!));
    }
  }
}

function compare(left: number, operator: ComparisonOperator, right: number): boolean {
  switch (operator) {
    case "<":
      return left < right;
    case "<=":
      return left <= right;
    case ">":
      return left > right;
    case ">=":
      return left >= right;
    case "==":
      return left === right;
    case "!=":
      return left !== right;
  }
}
