import { describe, expect, it } from "vitest";
import { CostBudget } from "../../src/engine/cost-budget.js";

describe("CostBudget", () => {
  it("counts every run's spend, other calls and episodes in flight at each run's mean against one limit", () => {
    const budget = new CostBudget(1.05);
    const first = budget.open();
    const second = budget.open();
    first.episodeSpend = 0.3;
    first.priced = 3;
    first.otherSpend = () => 0.3; // judge calls: the mean episode cost becomes 0.2
    second.episodeSpend = 0.1;
    second.priced = 1;
    expect(budget.spent()).toBeCloseTo(0.7, 12);
    // 0.7 spent + 0.2 for a new episode of the first run: room left.
    expect(budget.wouldPass(first)).toBe(false);
    // One episode of the second run in flight (0.1) makes 1.0 with the new one: still under the limit.
    second.inFlight = 1;
    expect(budget.wouldPass(first)).toBe(false);
    // One of the first run's in flight too: 1.2 with a new one of the first run, 1.1 with one of the second.
    first.inFlight = 1;
    expect(budget.wouldPass(first)).toBe(true);
    expect(budget.wouldPass(second)).toBe(true);
  });

  it("is never passed without a limit", () => {
    const budget = new CostBudget(undefined);
    const account = budget.open();
    account.episodeSpend = 1e9;
    account.priced = 1;
    expect(budget.wouldPass(account)).toBe(false);
  });
});
