import { describe, expect, it } from "vitest";
import { microBatches } from "../../../src/models/tiny/micro-batches.js";

const row = (length: number, label: string) => ({ tokens: Array.from({ length }, () => 1), label });

describe("microBatches", () => {
  it("sorts by length and keeps each block within rows × longest row ≤ budget", () => {
    const rows = [row(10, "a"), row(3, "b"), row(5, "c"), row(4, "d"), row(9, "e")];
    const blocks = microBatches(rows, 20);
    expect(blocks.map((block) => block.map((entry) => entry.label))).toEqual([["b", "d", "c"], ["e", "a"]]);
    for (const block of blocks) expect(block.length * Math.max(...block.map((entry) => entry.tokens.length))).toBeLessThanOrEqual(20);
  });

  it("puts a row longer than the budget alone, and loses none", () => {
    const rows = [row(30, "long"), row(2, "x"), row(2, "y")];
    const blocks = microBatches(rows, 8);
    expect(blocks.map((block) => block.map((entry) => entry.label))).toEqual([["x", "y"], ["long"]]);
    expect(microBatches([], 8)).toEqual([]);
  });
});
