/**
 * FrozenLake parity with the real Gymnasium (1.4.0, from the pinned `parity` environment): for many maps, seeds and
 * action sequences, slippery and not, the project's environment gives exactly Gymnasium's observations, rewards,
 * terminations, truncations and slip outcomes. The two draw their slips from different generators by design (mulberry32
 * here, numpy's PCG64 there), so each episode here is driven with the uniform draws Gymnasium's own episode took.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { generateFrozenLakeMap } from "../../../benchmarks/frozenlake/generate-frozenlake-map.js";
import { createFrozenLakeEnvironment, type FrozenLakeAction } from "../../../cookbooks/frozenlake/index.js";
import { createRng, randomInt } from "../../../src/core/random.js";
import type { Task } from "../../../src/core/task.js";
import { pythonEnv } from "../../helpers/python-env.js";

interface ParityCase {
  map?: string[];
  mapName?: string;
  generate?: { size: number; p: number; seed: number };
  isSlippery: boolean;
  seed: number;
  actions: FrozenLakeAction[];
}

interface GymnasiumStep {
  observation: number;
  reward: number;
  terminated: boolean;
  truncated: boolean;
  move: FrozenLakeAction | null;
}

interface GymnasiumTrace {
  map: string[];
  start: number;
  draws: number[];
  steps: GymnasiumStep[];
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** The cases: Gymnasium's named maps, its generated maps and this project's, each slippery and not, over several seeds. */
function parityCases(): ParityCase[] {
  const rng = createRng(32);
  // Lengths up to 130 cross Gymnasium's 100-step TimeLimit; actions go on after a hole or the goal (both absorbing).
  const actions = () => Array.from({ length: 1 + randomInt(rng, 130) }, () => randomInt(rng, 4) as FrozenLakeAction);
  const maps: Omit<ParityCase, "isSlippery" | "seed" | "actions">[] = [
    { mapName: "4x4" },
    { mapName: "8x8" },
    ...[2, 3, 4, 5, 6, 8].flatMap((size) => [0.6, 0.8, 0.95].map((p) => ({ generate: { size, p, seed: size * 100 + Math.round(p * 100) } }))),
    ...[3, 4, 6, 8].map((size) => ({ map: generateFrozenLakeMap(size, 0.8, size) })),
    // No hole at all: every episode runs into the TimeLimit unless it finds G.
    { map: ["SFFF", "FFFF", "FFFF", "FFFG"] },
  ];
  return maps.flatMap((map) => [true, false].flatMap((isSlippery) => [0, 1, 7, 2026].map((seed) => ({ ...map, isSlippery, seed, actions: actions() }))));
}

/** An Rng that hands out `draws` in order and fails on one draw too many. */
function replayRng(draws: number[]): () => number {
  let next = 0;
  return () => {
    if (next >= draws.length) throw new Error(`the environment took draw ${next + 1}; Gymnasium took ${draws.length}`);
    return draws[next++]!;
  };
}

describe("FrozenLake against gymnasium 1.4.0", () => {
  const cases = parityCases();
  let traces: GymnasiumTrace[] = [];
  let version = "";

  beforeAll(() => {
    const python = pythonEnv("parity");
    const run = spawnSync(python, [path.join(here, "gymnasium-traces.py")], { input: JSON.stringify(cases), encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
    if (run.status !== 0) throw new Error(`gymnasium-traces.py failed:\n${run.stderr}`);
    ({ traces, gymnasium: version } = JSON.parse(run.stdout) as { traces: GymnasiumTrace[]; gymnasium: string });
  }, 600_000);

  it("runs the pinned Gymnasium over every case", () => {
    expect(version).toBe("1.4.0");
    expect(traces).toHaveLength(cases.length);
    expect(cases.length).toBeGreaterThanOrEqual(150);
  });

  it("gives Gymnasium's observation, reward, termination, truncation and slip at every step", async () => {
    let steps = 0;
    let slips = 0;
    let truncations = 0;
    for (const [index, parityCase] of cases.entries()) {
      const trace = traces[index]!;
      const label = `case ${index} (${parityCase.mapName ?? trace.map.join("/")}, ${parityCase.isSlippery ? "slippery" : "not slippery"}, seed ${parityCase.seed})`;
      const draws = replayRng(trace.draws);
      const environment = createFrozenLakeEnvironment({ createRng: () => draws });
      const task: Task = { id: label, instruction: "", metadata: { map: trace.map, is_slippery: parityCase.isSlippery } };
      const start = await environment.reset(task, parityCase.seed);
      expect(start.position, label).toBe(trace.start);
      for (const [turn, action] of parityCase.actions.entries()) {
        const step = await environment.step(action);
        const expected = trace.steps[turn]!;
        const actual = { observation: step.observation.position, reward: step.reward, terminated: step.info.terminated, truncated: step.info.truncated, move: step.info.move ?? null };
        expect(actual, `${label}, step ${turn + 1}`).toEqual(expected);
        expect(step.done, `${label}, step ${turn + 1}`).toBe(expected.terminated || expected.truncated);
        steps += 1;
        if (expected.move !== null && expected.move !== action) slips += 1;
        if (expected.truncated) truncations += 1;
      }
      expect(() => draws(), `${label}: every Gymnasium draw was used`).toThrow(/took draw/);
      await environment.close();
    }
    // The cases really exercise slips and the TimeLimit, not only straight moves.
    expect(steps).toBeGreaterThan(5_000);
    expect(slips).toBeGreaterThan(500);
    expect(truncations).toBeGreaterThan(10);
  });
});
