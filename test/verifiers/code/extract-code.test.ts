import { describe, expect, it } from "vitest";
import { extractLastCodeBlock, extractProgram } from "../../../verifiers/code/extract-code.js";

describe("extractProgram", () => {
  it("takes the last fenced block of a reply", () => {
    const reply = "Try:\n```python\nprint(1)\n```\nBetter:\n```python\nprint(2)\n```\nDone.";
    expect(extractProgram(reply)).toBe("print(2)\n");
  });

  it("accepts a fence without a language tag", () => {
    expect(extractLastCodeBlock("```\nx = 1\n```")).toBe("x = 1\n");
  });

  it("treats a reply without fences as a bare program", () => {
    expect(extractProgram("print(3)\n")).toBe("print(3)\n");
  });

  it("gives nothing for an unclosed fence", () => {
    expect(extractProgram("```python\nprint(1)\n")).toBe("");
  });
});
