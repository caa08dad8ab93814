import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  evaluateFilter,
  filterConjuncts,
  filterNames,
  FilterSyntaxError,
  parseFilterExpression,
} from "../../../src/datasets/curation/filter-expression.js";

interface FilterCases {
  values: Record<string, number>;
  evaluations: { expression: string; expected: boolean }[];
  errors: { expression: string; position: number; message: string }[];
}
const cases = JSON.parse(readFileSync(new URL("./filter-cases.json", import.meta.url), "utf8")) as FilterCases;
const lookup = (name: string) => cases.values[name] ?? Number.NaN;

describe("the --filter language", () => {
  it.each(cases.evaluations)("evaluates $expression to $expected", ({ expression, expected }) => {
    expect(evaluateFilter(parseFilterExpression(expression), lookup)).toBe(expected);
  });

  it.each(cases.errors)("refuses $expression with a caret under character $position", ({ expression, position, message }) => {
    let error: unknown;
    try {
      parseFilterExpression(expression);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FilterSyntaxError);
    const syntaxError = error as FilterSyntaxError;
    expect(syntaxError.position).toBe(position);
    expect(syntaxError.message).toContain(message);
    // The caret line sits under the expression line, indented the same.
    const [, expressionLine, caretLine] = syntaxError.message.split("\n");
    expect(expressionLine).toBe(`  ${expression}`);
    expect(caretLine).toBe(`  ${" ".repeat(position)}^`);
  });

  it("parses a comparison chain as one node with every operator", () => {
    const tree = parseFilterExpression("0 < avg <= 1");
    expect(tree).toMatchObject({ kind: "compare", operators: ["<", "<="] });
  });

  it("groups and under or, whichever comes first", () => {
    expect(parseFilterExpression("a or b and c")).toMatchObject({ kind: "or", right: { kind: "and" } });
    expect(parseFilterExpression("a and b or c")).toMatchObject({ kind: "or", left: { kind: "and" } });
  });

  it("lists the names it reads with their offsets, and splits top-level and terms", () => {
    const text = "pass@4 >= 0.5 and (tokens < 2000 or avg == 1)";
    const tree = parseFilterExpression(text);
    expect(filterNames(tree)).toEqual([
      { name: "pass@4", start: 0 },
      { name: "tokens", start: 19 },
      { name: "avg", start: 36 },
    ]);
    expect(filterConjuncts(tree).map((term) => text.slice(term.start, term.end))).toEqual(["pass@4 >= 0.5", "(tokens < 2000 or avg == 1)"]);
  });
});
