import { describe, expect, it } from "vitest";
import { cookbooks } from "../../cookbooks/registry.js";
import { cookbookJudgeKind } from "../../src/tournament/cookbook-judge-kind.js";

describe("cookbookJudgeKind", () => {
  it("reranks deepcoder's programs with the code judge", () => {
    expect(cookbookJudgeKind("deepcoder")).toBe("code");
  });

  it("judges the final answer of every other built-in cookbook and of a user's cookbook", () => {
    for (const name of [...cookbooks.names().filter((name) => name !== "deepcoder"), "my-cookbook"]) expect(cookbookJudgeKind(name)).toBe("math");
  });
});
