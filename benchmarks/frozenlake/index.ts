/** The `frozenlake` benchmark: generated solvable FrozenLake maps (train 10,000, test 100), non-slippery unless the split ends in `-slippery`. */
import { InputError, type Benchmark } from "rllm-ts/core";
import { frozenLakeSplitSizes, frozenLakeTasks, type FrozenLakeSplit } from "./frozenlake-tasks.js";

export const frozenLakeBenchmark: Benchmark = {
  name: "frozenlake",
  description: "FrozenLake grids (2×2 to 9×9, rLLM's generator) walked in up to 2·size turns; --split test (100), train (10,000), or test-slippery / train-slippery.",
  defaultCookbook: "frozenlake",
  catalog: { kind: "agentic", size: "100 test · 10,000 train (generated)", licence: "generated here", grader: "reaches the goal" },
  async loadTasks(options) {
    if (options.dataFile) throw new InputError("frozenlake generates its maps; --data is not supported");
    const split = options.split ?? "test";
    const base = split.replace(/-slippery$/, "");
    if (!(base in frozenLakeSplitSizes)) throw new InputError(`frozenlake: unknown split "${split}" (use test, train, test-slippery or train-slippery)`);
    return frozenLakeTasks(base as FrozenLakeSplit, split.endsWith("-slippery"));
  },
};

export { generateFrozenLakeMap, isSolvable, type FrozenLakeMap } from "./generate-frozenlake-map.js";
export { frozenLakeTasks } from "./frozenlake-tasks.js";
