import { describe, expect, it } from "vitest";
import { benchmarks } from "../../benchmarks/registry.js";
import { cookbooks } from "../../cookbooks/registry.js";
import type { Cookbook } from "../../src/core/cookbook.js";
import { cookbookJudgeKind } from "../../src/tournament/cookbook-judge-kind.js";

const codeCookbooks = ["deepcoder", "evalplus"];

describe("cookbookJudgeKind", () => {
  it("reranks the programs of deepcoder (LiveCodeBench) and evalplus (HumanEval+, MBPP+) with the code judge, as each declares", async () => {
    for (const name of codeCookbooks) expect(cookbookJudgeKind(await cookbooks.load(name))).toBe("code");
  });

  it("reranks every code benchmark of the catalogue with the code judge, through the cookbook it runs by default", async () => {
    const codeBenchmarks = [];
    for (const name of benchmarks.names()) {
      const benchmark = await benchmarks.load(name);
      if (benchmark.catalog?.kind === "code") codeBenchmarks.push(benchmark);
    }
    // deepcoder, humaneval, humanevalplus, livecodebench, mbppplus: a catalogue read as empty would pass anything.
    expect(codeBenchmarks.length).toBeGreaterThanOrEqual(5);
    for (const benchmark of codeBenchmarks) {
      expect([benchmark.name, cookbookJudgeKind(await cookbooks.load(benchmark.defaultCookbook))]).toEqual([benchmark.name, "code"]);
    }
  });

  it("judges the final answer of every other built-in cookbook, and of a cookbook that declares nothing", async () => {
    for (const name of cookbooks.names().filter((name) => !codeCookbooks.includes(name))) expect(cookbookJudgeKind(await cookbooks.load(name))).toBe("math");
    const mine: Pick<Cookbook, "judgeKind"> = {};
    expect(cookbookJudgeKind(mine)).toBe("math");
  });
});
