import { describe, expect, it } from "vitest";
import { cookbooks } from "../../cookbooks/registry.js";
import { cookbookJudgeKind } from "../../src/tournament/cookbook-judge-kind.js";

const codeCookbooks = ["deepcoder", "evalplus"];

describe("cookbookJudgeKind", () => {
  it("reranks the programs of deepcoder (LiveCodeBench) and evalplus (HumanEval+, MBPP+) with the code judge", () => {
    for (const name of codeCookbooks) expect(cookbookJudgeKind(name)).toBe("code");
  });

  it("judges the final answer of every other built-in cookbook and of a user's cookbook", () => {
    for (const name of [...cookbooks.names().filter((name) => !codeCookbooks.includes(name)), "my-cookbook"]) expect(cookbookJudgeKind(name)).toBe("math");
  });
});
