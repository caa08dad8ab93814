/** The FrozenLake splits as Tasks, drawn as rLLM's prepare_frozenlake_data.py draws them (seeds, sizes 2–9, p in [0.6, 0.85)) from the project rng. */
import { createRng, randomInt, randomIntBetween, type Task } from "rllm-ts/core";
import { generateFrozenLakeMap } from "./generate-frozenlake-map.js";

/** Rows per split; test rows are drawn after the train rows, from the same stream, as rLLM does. */
export const frozenLakeSplitSizes = { train: 10_000, test: 100 } as const;
export type FrozenLakeSplit = keyof typeof frozenLakeSplitSizes;

// rLLM seeds its data stream with 42.
const dataSeed = 42;

/** One split: `{id: frozenlake_<index>_<seed>_<size>, instruction: the start grid, metadata: {seed, size, p, is_slippery, max_steps, index}}`. */
export function frozenLakeTasks(split: FrozenLakeSplit, isSlippery = false): Task[] {
  const rng = createRng(dataSeed);
  let offset = 0;
  for (const [name, count] of Object.entries(frozenLakeSplitSizes)) {
    // Each split draws all its seeds, then all its sizes, then all its p values.
    const seeds = Array.from({ length: count }, () => randomInt(rng, 1_000_000));
    const sizes = Array.from({ length: count }, () => randomIntBetween(rng, 2, 9));
    const ps = Array.from({ length: count }, () => 0.6 + 0.25 * rng());
    if (name === split) {
      return seeds.map((seed, position) => {
        const index = offset + position;
        const size = sizes[position]!;
        const p = ps[position]!;
        return {
          id: `frozenlake_${String(index).padStart(6, "0")}_${seed}_${size}`,
          instruction: generateFrozenLakeMap(size, p, seed).join("\n"),
          metadata: { seed, size, p, is_slippery: isSlippery, max_steps: 2 * size, index },
        };
      });
    }
    offset += count;
  }
  throw new Error(`unknown FrozenLake split ${split}`);
}
