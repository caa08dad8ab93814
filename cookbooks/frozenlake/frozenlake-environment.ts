/**
 * Gymnasium FrozenLake-v1 dynamics as an Environment: actions 0 LEFT, 1 DOWN, 2 RIGHT, 3 UP; moves clamp at the
 * edges; slippery moves go (a−1) mod 4, a, (a+1) mod 4 with 1/3 each; reward 1 on reaching G; G and H end the
 * episode; a TimeLimit cut after 100 steps. One uniform draw per reset and per step, as Gymnasium's categorical sample.
 */
import type { Environment, EnvironmentStep } from "../../src/core/environment.js";
import { createRng, type Rng } from "../../src/core/random.js";
import type { Task } from "../../src/core/task.js";
import { generateFrozenLakeMap, type FrozenLakeMap } from "../../benchmarks/frozenlake/generate-frozenlake-map.js";

/** 0 LEFT, 1 DOWN, 2 RIGHT, 3 UP (Gymnasium's codes). */
export type FrozenLakeAction = 0 | 1 | 2 | 3;

/** The state the agent sees: the map and the player's cell (row · columns + column). */
export interface FrozenLakeObservation {
  map: FrozenLakeMap;
  position: number;
}

/** Gymnasium registers FrozenLake-v1 with max_episode_steps=100. */
export const frozenLakeStepLimit = 100;

const moves: Record<FrozenLakeAction, [number, number]> = { 0: [0, -1], 1: [1, 0], 2: [0, 1], 3: [-1, 0] };

/** The map a task describes: its metadata (seed, size, p) regenerated, or `metadata.map` when given. */
export function frozenLakeMapOf(task: Task): FrozenLakeMap {
  if (Array.isArray(task.metadata.map)) return task.metadata.map.map(String);
  const { seed, size, p } = task.metadata;
  if (typeof seed !== "number" || typeof size !== "number" || typeof p !== "number") throw new Error(`task ${task.id}: FrozenLake needs metadata.seed, size and p (or map)`);
  return generateFrozenLakeMap(size, p, seed);
}

/** Whether the task's lake is slippery (metadata.is_slippery). */
export function isSlipperyTask(task: Task): boolean {
  return task.metadata.is_slippery === true;
}

/** A FrozenLake-v1 environment; `reset` seeds the slips with the given seed. */
export function createFrozenLakeEnvironment(): Environment<FrozenLakeObservation, FrozenLakeAction> {
  let map: FrozenLakeMap = [];
  let position = 0;
  let isSlippery = false;
  let rng: Rng = createRng(0);
  let elapsed = 0;
  return {
    async reset(task, seed) {
      map = frozenLakeMapOf(task);
      isSlippery = isSlipperyTask(task);
      rng = createRng(seed);
      elapsed = 0;
      // Gymnasium samples the start among S tiles with one draw; there is one S, but the draw is still consumed.
      rng();
      const flat = map.join("");
      position = flat.indexOf("S");
      return { map, position };
    },
    async step(action) {
      const result = frozenLakeTransition(map, position, action, isSlippery, rng());
      position = result.position;
      elapsed += 1;
      const truncated = !result.terminated && elapsed >= frozenLakeStepLimit;
      const step: EnvironmentStep<FrozenLakeObservation> = {
        observation: { map, position },
        reward: result.reward,
        done: result.terminated || truncated,
        info: { tile: result.tile, terminated: result.terminated, truncated },
      };
      return step;
    },
    async close() {},
  };
}

/** One Gymnasium transition from `position` given a uniform `draw` in [0, 1): the new cell, its tile, reward and whether it ends the episode. */
export function frozenLakeTransition(map: FrozenLakeMap, position: number, action: FrozenLakeAction, isSlippery: boolean, draw: number) {
  const columns = map[0]!.length;
  const tileAt = (cell: number) => map[Math.floor(cell / columns)]![cell % columns]!;
  const here = tileAt(position);
  // G and H are absorbing: Gymnasium keeps the state, with reward 0, terminated.
  if (here === "G" || here === "H") return { position, tile: here, reward: 0, terminated: true };
  const outcomes: FrozenLakeAction[] = isSlippery ? [((action + 3) % 4) as FrozenLakeAction, action, ((action + 1) % 4) as FrozenLakeAction] : [action];
  // categorical_sample: the first outcome whose cumulative probability exceeds the draw.
  let cumulative = 0;
  let chosen = outcomes[outcomes.length - 1]!;
  for (const outcome of outcomes) {
    cumulative += 1 / outcomes.length;
    if (cumulative > draw) {
      chosen = outcome;
      break;
    }
  }
  const [rowStep, columnStep] = moves[chosen];
  const row = Math.min(map.length - 1, Math.max(0, Math.floor(position / columns) + rowStep));
  const column = Math.min(columns - 1, Math.max(0, (position % columns) + columnStep));
  const next = row * columns + column;
  const tile = tileAt(next);
  return { position: next, tile, reward: tile === "G" ? 1 : 0, terminated: tile === "G" || tile === "H" };
}
