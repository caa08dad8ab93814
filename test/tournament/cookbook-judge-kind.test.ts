import { describe, expect, it } from "vitest";
import { cookbooks } from "../../cookbooks/registry.js";
import type { Cookbook } from "../../src/core/cookbook.js";
import { cookbookJudgeKind } from "../../src/tournament/cookbook-judge-kind.js";

describe("cookbookJudgeKind", () => {
  it("reranks a cookbook whose answers are programs with the code judge, as it declares", async () => {
    expect(cookbookJudgeKind(await cookbooks.load("deepcoder"))).toBe("code");
  });

  it("judges the final answer of every other built-in cookbook, and of a cookbook that declares nothing", async () => {
    for (const name of cookbooks.names().filter((name) => name !== "deepcoder")) expect(cookbookJudgeKind(await cookbooks.load(name))).toBe("math");
    const mine: Pick<Cookbook, "judgeKind"> = {};
    expect(cookbookJudgeKind(mine)).toBe("math");
  });
});
