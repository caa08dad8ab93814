import { afterAll, describe, expect, it } from "vitest";
import { frozenLakeTasks } from "../../../benchmarks/frozenlake/index.js";
import { createFrozenLakeEnvironment, frozenLakeCookbook, frozenLakeTransition, parseFrozenLakeAction, renderFrozenLake, type FrozenLakeAction } from "../../../cookbooks/frozenlake/index.js";
import { createRecordingLlmClient } from "../../../src/testing/index.js";
import type { Episode } from "../../../src/core/episode.js";
import type { Task } from "../../../src/core/task.js";
import actionCases from "./action-cases.json" with { type: "json" };
import { openTestRun } from "../../../src/testing/open-test-run.js";

const testRun = openTestRun();
afterAll(() => testRun.close());

const moves: [FrozenLakeAction, number, number][] = [[0, 0, -1], [1, 1, 0], [2, 0, 1], [3, -1, 0]];

/** Shortest action sequence from S to G avoiding holes (breadth-first), on a non-slippery lake. */
function shortestPath(map: string[]): FrozenLakeAction[] {
  const size = map.length;
  const start = map.join("").indexOf("S");
  const previous = new Map<number, [number, FrozenLakeAction]>([[start, [-1, 0]]]);
  const queue = [start];
  while (queue.length > 0) {
    const cell = queue.shift()!;
    if (map.join("")[cell] === "G") {
      const actions: FrozenLakeAction[] = [];
      for (let at = cell; at !== start; at = previous.get(at)![0]) actions.unshift(previous.get(at)![1]);
      return actions;
    }
    for (const [action, rowStep, columnStep] of moves) {
      const row = Math.floor(cell / size) + rowStep;
      const column = (cell % size) + columnStep;
      if (row < 0 || row >= size || column < 0 || column >= size || map[row]![column] === "H" || previous.has(row * size + column)) continue;
      previous.set(row * size + column, [cell, action]);
      queue.push(row * size + column);
    }
  }
  throw new Error("no path");
}

/** Exact win probability of the uniformly random policy within `turns` moves (dynamic programming over the transition table). */
function randomPolicyWinProbability(map: string[], turns: number, isSlippery: boolean): number {
  const cells = map.length * map.length;
  let win = new Array<number>(cells).fill(0); // win[cell] with 0 moves left
  for (let left = 1; left <= turns; left++) {
    const next = new Array<number>(cells).fill(0);
    for (let cell = 0; cell < cells; cell++) {
      const tile = map.join("")[cell];
      if (tile === "G" || tile === "H") continue;
      for (const action of [0, 1, 2, 3] as FrozenLakeAction[]) {
        const draws = isSlippery ? [0.1, 0.5, 0.9] : [0.5];
        for (const draw of draws) {
          const result = frozenLakeTransition(map, cell, action, isSlippery, draw);
          next[cell]! += (result.reward + (result.terminated ? 0 : win[result.position]!)) / 4 / draws.length;
        }
      }
    }
    win = next;
  }
  return win[map.join("").indexOf("S")]!;
}

function runFlow(task: Task, replies: string[] | ((request: unknown, index: number) => string)): Promise<Episode> {
  const client = createRecordingLlmClient({ reply: replies as never });
  return frozenLakeCookbook.flow(task, testRun.flowContext(client)) as Promise<Episode>;
}

const fence = (action: FrozenLakeAction) => `\`\`\`\n${["Left", "Down", "Right", "Up"][action]}\n\`\`\``;

describe("FrozenLake", () => {
  it.each(actionCases.cases)("parses $reply as $action", ({ reply, action }) => {
    expect(parseFrozenLakeAction(reply) ?? null).toBe(action);
  });

  it("slips left to up (first third of the draws) or down (last third), as Gymnasium orders the outcomes", () => {
    const map = ["FFF", "FSF", "FFG"];
    expect([0.1, 0.5, 0.9].map((draw) => frozenLakeTransition(map, 4, 0, true, draw).position)).toEqual([1, 3, 7]);
    expect(frozenLakeTransition(map, 4, 0, false, 0.9).position).toBe(3);
    expect(frozenLakeTransition(map, 0, 3, false, 0.5).position).toBe(0); // bumping the edge stays put
  });

  it("wins every non-slippery test map with the shortest path, in the environment", async () => {
    for (const task of frozenLakeTasks("test")) {
      const environment = createFrozenLakeEnvironment();
      await environment.reset(task, 0);
      const path = shortestPath(String(task.instruction).split("\n"));
      let last: unknown;
      for (const action of path) last = await environment.step(action);
      expect(last).toMatchObject({ reward: 1, done: true });
    }
  });

  it("wins through the cookbook's flow when a scripted model plays the shortest path, and grades it 1", async () => {
    const task = frozenLakeTasks("test").find((candidate) => candidate.metadata.size === 5)!;
    const path = shortestPath(String(task.instruction).split("\n"));
    const episode = await runFlow(task, path.map((action) => `I move.\n${fence(action)}`));
    expect(episode.trajectories[0]!.steps).toHaveLength(path.length);
    expect(episode.terminationReason).toBe("done");
    expect(await frozenLakeCookbook.evaluate(task, episode, testRun.evaluatorContext())).toMatchObject({ value: 1, isCorrect: true });
  });

  it("uses up a turn for an invalid reply without moving, and reminds the model of the grid", async () => {
    const task: Task = { id: "lake", instruction: "", metadata: { map: ["SF", "FG"], max_steps: 2 } };
    const episode = await runFlow(task, ["I think I will go right.", fence(2)]);
    const steps = episode.trajectories[0]!.steps;
    expect(steps).toHaveLength(2);
    expect(steps[0]!.info.decision).toBe("invalid");
    expect(String(steps[1]!.input.at(-1)!.content)).toContain(renderFrozenLake({ map: ["SF", "FG"], position: 0 }));
    expect(episode.terminationReason).toBe("max_turns");
    expect(await frozenLakeCookbook.evaluate(task, episode, testRun.evaluatorContext())).toMatchObject({ value: 0, isCorrect: false });
  });

  it.each([false, true])("matches the random policy's exact win rate on a 4×4 lake (slippery %s)", async (isSlippery) => {
    const map = ["SFFF", "FHFH", "FFFH", "HFFG"];
    const turns = 8;
    const expected = randomPolicyWinProbability(map, turns, isSlippery);
    const trials = 3000;
    let wins = 0;
    const task: Task = { id: "lake", instruction: "", metadata: { map, is_slippery: isSlippery } };
    for (let trial = 0; trial < trials; trial++) {
      const environment = createFrozenLakeEnvironment();
      await environment.reset(task, trial);
      // The policy's own stream, apart from the lake's slips.
      let state = trial * 2654435761;
      for (let turn = 0; turn < turns; turn++) {
        state = (Math.imul(state, 1103515245) + 12345) >>> 0;
        const result = await environment.step(((state >>> 16) % 4) as FrozenLakeAction);
        if (result.done) {
          wins += result.reward;
          break;
        }
      }
    }
    const rate = wins / trials;
    // Four standard errors: a deterministic run (fixed seeds) that would fail only if the dynamics were wrong.
    expect(Math.abs(rate - expected)).toBeLessThan(4 * Math.sqrt((expected * (1 - expected)) / trials));
  });
});
