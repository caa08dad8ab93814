import { describe, expect, it } from "vitest";
import { createRng } from "../../src/core/random.js";
import type { ArmComparison } from "../../src/tournament/bradley-terry-posterior.js";
import { chanceToBeat, fitBradleyTerryPosterior, samplePosterior } from "../../src/tournament/bradley-terry-posterior.js";

const prior = { means: [0, 0, 0], spread: 1, biasSpread: 0.5 };
const win = (armA: number, armB: number, outcome = 1): ArmComparison => ({ armA, armB, outcome, weight: 1 });

describe("fitBradleyTerryPosterior", () => {
  it("returns the prior when nothing was judged", () => {
    const posterior = fitBradleyTerryPosterior([], { means: [0.5, 0, 1], spread: 1, biasSpread: 0.5 });
    expect(posterior.means.map((mean) => Number(mean.toFixed(6)))).toEqual([0.5, 0, 1]);
    expect(posterior.bias).toBeCloseTo(0, 9);
  });

  it("orders arms by their wins", () => {
    const comparisons = [win(0, 1), win(1, 0, 0), win(0, 2), win(1, 2), win(2, 1, 0), win(0, 1)];
    const { means } = fitBradleyTerryPosterior(comparisons, prior);
    expect(means[0]).toBeGreaterThan(means[1]!);
    expect(means[1]).toBeGreaterThan(means[2]!);
  });

  it("puts slot A's systematic wins into the bias term, not into one arm's strength", () => {
    // Each pair judged in both orders, slot A winning every time: strengths stay equal, the bias is positive.
    const comparisons = [win(0, 1), win(1, 0), win(0, 2), win(2, 0), win(1, 2), win(2, 1)];
    const posterior = fitBradleyTerryPosterior(comparisons, prior);
    expect(posterior.bias).toBeGreaterThan(0.3);
    expect(Math.abs(posterior.means[0]! - posterior.means[1]!)).toBeLessThan(1e-6);
  });

  it("gives a chance to beat the leader that shrinks as evidence accumulates", () => {
    const few = fitBradleyTerryPosterior([win(0, 1)], prior);
    const many = fitBradleyTerryPosterior(Array.from({ length: 12 }, (_, index) => (index % 2 === 0 ? win(0, 1) : win(1, 0, 0))), prior);
    expect(chanceToBeat(few, 0)[1]).toBeGreaterThan(chanceToBeat(many, 0)[1]!);
    expect(chanceToBeat(many, 0)[0]).toBe(0);
  });

  it("draws samples centred on the means", () => {
    const posterior = fitBradleyTerryPosterior([win(0, 1), win(0, 1), win(0, 2)], prior);
    const rng = createRng(5);
    const draws = Array.from({ length: 4000 }, () => samplePosterior(posterior, rng));
    for (const arm of [0, 1, 2]) {
      const average = draws.reduce((sum, draw) => sum + draw[arm]!, 0) / draws.length;
      expect(average).toBeCloseTo(posterior.means[arm]!, 1);
    }
  });
});
