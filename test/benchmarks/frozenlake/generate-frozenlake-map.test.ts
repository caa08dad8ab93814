import { describe, expect, it } from "vitest";
import { frozenLakeTasks, generateFrozenLakeMap, isSolvable } from "../../../benchmarks/frozenlake/index.js";
import cases from "./map-cases.json" with { type: "json" };

describe("generateFrozenLakeMap", () => {
  it.each(cases.maps)("draws the same $size×$size map for seed $seed every time", ({ size, p, seed, map }) => {
    expect(generateFrozenLakeMap(size, p, seed)).toEqual(map);
    expect(generateFrozenLakeMap(size, p, seed)).toEqual(generateFrozenLakeMap(size, p, seed));
  });

  it("gives every test task a solvable square map with one S and one G", () => {
    for (const task of frozenLakeTasks("test")) {
      const map = String(task.instruction).split("\n");
      const size = task.metadata.size as number;
      expect(map).toHaveLength(size);
      expect(map.every((row) => row.length === size)).toBe(true);
      expect(map.join("").match(/S/g)).toHaveLength(1);
      expect(map.join("").match(/G/g)).toHaveLength(1);
      expect(isSolvable(map)).toBe(true);
      expect(task.metadata.max_steps).toBe(2 * size);
    }
  });

  it("draws sizes 2 to 9 and p in [0.6, 0.85), test rows after the 10,000 train rows", () => {
    const tasks = frozenLakeTasks("test");
    expect(tasks[0]!.metadata.index).toBe(10_000);
    expect(new Set(tasks.map((task) => task.metadata.size))).toEqual(new Set([2, 3, 4, 5, 6, 7, 8, 9]));
    expect(tasks.every((task) => (task.metadata.p as number) >= 0.6 && (task.metadata.p as number) < 0.85)).toBe(true);
  });

  it("refuses a map with a hole wall between S and G as unsolvable", () => {
    expect(isSolvable(["SH", "HG"])).toBe(false);
    expect(isSolvable(["SF", "HG"])).toBe(true);
  });
});
