import { describe, expect, it } from "vitest";
import { groupByAnswer } from "../../src/tournament/answer-groups.js";

describe("groupByAnswer", () => {
  it("groups equal answers in order of first appearance", () => {
    expect(groupByAnswer(5, ["3", "4", "3", "5", "4"])).toEqual([[0, 2], [1, 4], [3]]);
  });

  it("keeps a candidate without an answer on its own, even next to another without one", () => {
    expect(groupByAnswer(4, ["3", undefined, "3", undefined])).toEqual([[0, 2], [1], [3]]);
  });

  it("makes every candidate its own group when no answers are given", () => {
    expect(groupByAnswer(3)).toEqual([[0], [1], [2]]);
  });
});
