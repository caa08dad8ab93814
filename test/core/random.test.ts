/** The one seeded random module replays the exact sequences of the generators it replaced (the shipped figures depend on them). */
import { describe, expect, it } from "vitest";
import { clampedNormal, createRng, deriveSeed, normal, randomInt, randomIntBetween, shuffled } from "../../src/core/random.js";
import recorded from "./random-sequences.json" with { type: "json" };

describe("core/random", () => {
  for (const expected of recorded.cases) {
    it(`replays the recorded sequences for seed ${expected.seed}`, () => {
      const seed = expected.seed;
      const uniform = createRng(seed);
      const normals = createRng(seed);
      const integers = createRng(seed);
      const clamped = createRng(seed);
      const between = createRng(seed);
      expect([uniform(), uniform(), uniform()]).toEqual(expected.uniform);
      expect([normal(normals), normal(normals)]).toEqual(expected.normal);
      expect([randomInt(integers, 17), randomInt(integers, 17)]).toEqual(expected.randomInt17);
      expect(shuffled([1, 2, 3, 4, 5, 6, 7], integers)).toEqual(expected.shuffled);
      expect([clampedNormal(clamped), clampedNormal(clamped)]).toEqual(expected.clampedNormal);
      expect([2, 2, 2].map(() => randomIntBetween(between, 2, 9))).toEqual(expected.randomIntBetween2And9);
      expect(deriveSeed(seed, "task-7", 3)).toBe(expected.deriveSeed);
    });
  }
});
