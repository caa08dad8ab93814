// The calculator tool reads what models write (%, $, separators, unicode operators) and cannot reach mathjs internals.
import { describe, expect, it } from "vitest";
import { calculate, normaliseExpression } from "../../../cookbooks/finqa/calculator.js";
import { capToolOutput } from "../../../cookbooks/finqa/cap-tool-output.js";

describe("calculator", () => {
  it.each([
    ["(5,829 − 5,735) / 5,735", 0.0163905841325],
    ["14.5% * $1,000", 145],
    ["8.1 ÷ 56 × 100", 14.4642857143],
    ["2 ** 10", 1024],
    ["２＋３".replace("＋", "+"), 5],
    ["0.1 + 0.2", 0.3],
  ])("evaluates %j", (expression, expected) => {
    expect(calculate(expression)).toBe(expected);
  });

  it("normalises percent literals into fractions", () => {
    expect(normaliseExpression("50% of 10")).toBe("(50/100) of 10");
  });

  it("returns errors for bad input and disabled functions instead of throwing", () => {
    expect(calculate("2 +* 3")).toBeInstanceOf(Error);
    expect((calculate('import({x: 1})') as Error).message).toMatch(/not available/);
    expect((calculate('createUnit("foo")') as Error).message).toMatch(/not available/);
    expect((calculate("[1, 2]") as Error).message).toMatch(/not a single number/);
    expect((calculate("1/0") as Error).message).toMatch(/not a finite number/);
  });
});

describe("capToolOutput", () => {
  it("keeps short text and cuts long text to the limit, head and tail kept", () => {
    expect(capToolOutput("short", 100)).toBe("short");
    const text = "H".repeat(6000) + "M".repeat(6000) + "T".repeat(6000);
    const capped = capToolOutput(text, 8000);
    expect(capped.length).toBeLessThanOrEqual(8000);
    expect(capped.length).toBeGreaterThan(7950);
    expect(capped.startsWith("H".repeat(3900))).toBe(true);
    expect(capped.endsWith("T".repeat(3900))).toBe(true);
    const marker = /\n…\[(\d+) characters omitted\]…\n/.exec(capped)!;
    // The count in the marker is exactly what was cut.
    expect(capped.length - marker[0].length + Number(marker[1])).toBe(text.length);
  });
});
