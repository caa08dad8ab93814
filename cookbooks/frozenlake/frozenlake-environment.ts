/**
 * Gymnasium FrozenLake-v1 dynamics as an Environment: actions 0 LEFT, 1 DOWN, 2 RIGHT, 3 UP; moves clamp at the
 * edges; slippery moves go (a−1) mod 4, a, (a+1) mod 4 with 1/3 each; reward 1 on reaching G; G and H end the
 * episode; a TimeLimit cut after 100 steps. One uniform draw per reset and per step, as Gymnasium's categorical sample.
 * The draws come from this project's mulberry32 generator, not numpy's PCG64, so a seed gives other slips than
 * Gymnasium's; fed Gymnasium's own draws (`createRng`), every observation, reward, termination and slip is Gymnasium's
 * (test/cookbooks/frozenlake/gymnasium-parity.sdk.test.ts checks it against gymnasium 1.4.0).
 */
import { createRng, type Environment, type EnvironmentStep, type Rng, type Task } from "rllm-ts/core";
import { generateFrozenLakeMap, type FrozenLakeMap } from "rllm-ts/benchmarks/frozenlake";

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

/** A FrozenLake-v1 environment; `reset` seeds the slips with the given seed, through `options.createRng` when given. */
export function createFrozenLakeEnvironment(options: { createRng?: (seed: number) => Rng } = {}): Environment<FrozenLakeObservation, FrozenLakeAction> {
  const seededRng = options.createRng ?? createRng;
  let map: FrozenLakeMap = [];
  let position = 0;
  let isSlippery = false;
  let rng: Rng = createRng(0);
  let elapsed = 0;
  return {
    async reset(task, seed) {
      map = frozenLakeMapOf(task);
      isSlippery = isSlipperyTask(task);
      rng = seededRng(seed);
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
      // Gymnasium's TimeLimit sets truncated from the step count alone, also on a step that terminates.
      const truncated = elapsed >= frozenLakeStepLimit;
      const step: EnvironmentStep<FrozenLakeObservation> = {
        observation: { map, position },
        reward: result.reward,
        done: result.terminated || truncated,
        info: { tile: result.tile, terminated: result.terminated, truncated, ...(result.move === undefined ? {} : { move: result.move }) },
      };
      return step;
    },
    async close() {},
  };
}

// Gymnasium's success_rate=1/3 and fail_rate=(1 − success_rate)/2: the fail rate is 0.33333333333333337, one ulp above
// 1/3, and the cumulative sums (hence which draw slips where) follow these exact floats.
const successRate = 1 / 3;
const failRate = (1 - successRate) / 2;

/** What one transition did; `move` is the direction actually taken (the slip outcome), absent on an absorbing G or H. */
export interface FrozenLakeTransition {
  position: number;
  tile: string;
  reward: number;
  terminated: boolean;
  move?: FrozenLakeAction;
}

/** One Gymnasium transition from `position` given a uniform `draw` in [0, 1): the new cell, its tile, reward and whether it ends the episode. */
export function frozenLakeTransition(map: FrozenLakeMap, position: number, action: FrozenLakeAction, isSlippery: boolean, draw: number): FrozenLakeTransition {
  const columns = map[0]!.length;
  const tileAt = (cell: number) => map[Math.floor(cell / columns)]![cell % columns]!;
  const here = tileAt(position);
  // G and H are absorbing: Gymnasium keeps the state, with reward 0, terminated.
  if (here === "G" || here === "H") return { position, tile: here, reward: 0, terminated: true };
  const outcomes: [FrozenLakeAction, number][] = isSlippery
    ? [[((action + 3) % 4) as FrozenLakeAction, failRate], [action, successRate], [((action + 1) % 4) as FrozenLakeAction, failRate]]
    : [[action, 1]];
  // categorical_sample: the first outcome whose cumulative probability (np.cumsum, summed left to right) exceeds the draw.
  let cumulative = 0;
  let chosen = outcomes[outcomes.length - 1]![0];
  for (const [outcome, probability] of outcomes) {
    cumulative += probability;
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
  return { position: next, tile, reward: tile === "G" ? 1 : 0, terminated: tile === "G" || tile === "H", move: chosen };
}
