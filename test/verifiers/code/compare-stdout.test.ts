import { describe, expect, it } from "vitest";
import { compareStdout, parseDecimal } from "../../../verifiers/code/compare-stdout.js";

// [actual, expected, isMatch, why]: LiveCodeBench grade_stdio behaviour.
const cases: [string, string, boolean, string][] = [
  ["4\n", "4\n", true, "identical"],
  ["4   \n\n\n", "4\n", true, "trailing spaces and blank lines are stripped"],
  ["  1 2\n3  \n", "1 2\n3", true, "each line is stripped"],
  ["1\n\n2\n", "1\n2\n", false, "a blank line between lines changes the line count"],
  ["1.0\n", "1.00\n", true, "equal decimals"],
  ["1e2\n", "100\n", true, "exponent form of the same decimal"],
  ["0.333333\n", "0.3333333\n", false, "no implicit float tolerance"],
  ["1   2\n", "1 2\n", true, "numeric tokens split on any whitespace"],
  ["a   b\n", "a b\n", false, "non-numeric tokens do not fall back"],
  ["YES\n", "yes\n", false, "case-sensitive"],
  ["-0\n", "0\n", true, "-0 equals 0 as a Decimal"],
  ["nan\n", "nan\n", true, "identical text matches before any decimal rule"],
  ["nan 1\n", "nan 1.0\n", false, "NaN never equals as a Decimal"],
  ["1_000\n", "1000\n", true, "Decimal accepts underscores"],
  ["12\n", "12 0\n", false, "different token counts"],
  ["", "\n", true, "empty equals blank"],
  ["4\r\n", "4\n", true, "carriage returns are whitespace"],
];

describe("compareStdout", () => {
  it.each(cases)("%j vs %j → %s (%s)", (actual, expected, isMatch) => {
    expect(compareStdout(actual, expected).isMatch).toBe(isMatch);
  });

  it("accepts numbers within an explicit float tolerance and only then", () => {
    expect(compareStdout("0.333333\n", "0.3333333\n", { floatTolerance: 1e-6 }).isMatch).toBe(true);
    expect(compareStdout("0.34\n", "0.3333333\n", { floatTolerance: 1e-6 }).isMatch).toBe(false);
  });

  it("names the first differing line", () => {
    expect(compareStdout("1\n3\n", "1\n2\n").detail).toBe('line 2: expected "2", got "3"');
  });
});

describe("parseDecimal", () => {
  it("rejects what Decimal rejects", () => {
    for (const token of ["", ".", "1..2", "abc", "0x10", "1e"]) expect(parseDecimal(token)).toBeUndefined();
  });

  it("gives equal values one canonical form", () => {
    expect(parseDecimal("120.0")?.canonical).toBe(parseDecimal("1.2e2")?.canonical);
    expect(parseDecimal("Infinity")?.canonical).toBe(parseDecimal("inf")?.canonical);
  });
});
