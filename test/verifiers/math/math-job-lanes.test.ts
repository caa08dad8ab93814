import { describe, expect, it } from "vitest";
import { groundTruthLane, MathJobLanes } from "../../../verifiers/math/math-job-lanes.js";

const job = (name: string, lane: number) => ({ name, lane });

describe("MathJobLanes", () => {
  it("gives a thread the jobs of its own lane, in order, before any other lane's", () => {
    const lanes = new MathJobLanes<{ name: string; lane: number }>(2);
    for (const item of [job("a0", 0), job("b1", 1), job("c0", 0), job("d1", 1), job("e0", 0)]) lanes.push(item);
    expect(lanes.take(1, 5).map((item) => item.name)).toEqual(["b1", "d1"]);
    expect(lanes.length).toBe(3);
    expect(lanes.take(0, 2).map((item) => item.name)).toEqual(["a0", "c0"]);
  });

  it("lets a thread whose lane is empty take from the longest other lane", () => {
    const lanes = new MathJobLanes<{ name: string; lane: number }>(3);
    for (const item of [job("a1", 1), job("b2", 2), job("c2", 2)]) lanes.push(item);
    expect(lanes.take(0, 1).map((item) => item.name)).toEqual(["b2"]);
    expect(lanes.take(0, 5).map((item) => item.name)).toEqual(["a1"]);
    expect(lanes.take(0, 5).map((item) => item.name)).toEqual(["c2"]);
    expect(lanes.length).toBe(0);
    expect(lanes.take(0, 5)).toEqual([]);
  });

  it("puts jobs handed back first in their lanes, in their order", () => {
    const lanes = new MathJobLanes<{ name: string; lane: number }>(2);
    lanes.push(job("later", 0));
    lanes.unshift(job("first", 0), job("other", 1), job("second", 0));
    expect(lanes.length).toBe(4);
    expect(lanes.take(0, 5).map((item) => item.name)).toEqual(["first", "second", "later"]);
  });
});

describe("groundTruthLane", () => {
  it("gives the same ground truth the same lane, and spreads different ones over the lanes", () => {
    expect(groundTruthLane("\\frac{1}{2}", 4)).toBe(groundTruthLane("\\frac{1}{2}", 4));
    expect(groundTruthLane(["1", 2], 4)).toBe(groundTruthLane(["1", 2], 4));
    const used = new Set(Array.from({ length: 64 }, (_, index) => groundTruthLane(String(index), 4)));
    expect([...used].sort()).toEqual([0, 1, 2, 3]);
    expect(groundTruthLane("anything", 1)).toBe(0);
  });
});
