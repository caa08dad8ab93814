import { describe, expect, it } from "vitest";
import { EpisodeSchema, type Episode } from "../../../src/core/episode.js";
import { TrajectorySchema } from "../../../src/core/trajectory.js";
import { curateRows, type CurationOptions, type CurationRun } from "../../../src/datasets/curation/curate-rows.js";
import { parseFilterExpression } from "../../../src/datasets/curation/filter-expression.js";

/** An arith-like episode: one solver call with token ids, scored. */
function episode(taskId: string, attempt: number, isCorrect: boolean, output = `reply ${attempt}`, completionTokens = 5): Episode {
  return EpisodeSchema.parse({
    id: `${taskId}:${attempt}`,
    taskId,
    attempt,
    target: "7",
    trajectories: [
      {
        name: "solver",
        steps: [{ input: [{ role: "user", content: `What is ${taskId}?` }], output, promptTokenIds: [2, 9, 3], completionTokenIds: [11, 12, 4], logprobs: [-1, -1, -1] }],
        reward: isCorrect ? 1 : 0,
      },
    ],
    score: { value: isCorrect ? 1 : 0, isCorrect, status: "scored", signals: {} },
    usage: { promptTokens: 3, completionTokens },
  });
}

// Task a: 1 of 4 right; b: 4 of 4; c: 0 of 4; d: 2 of 4, the two right answers equal but for case and spacing.
const episodes = [
  ...[true, false, false, false].map((right, attempt) => episode("a", attempt, right)),
  ...[true, true, true, true].map((right, attempt) => episode("b", attempt, right, `b ${attempt}`, 10 - attempt)),
  ...[false, false, false, false].map((right, attempt) => episode("c", attempt, right)),
  episode("d", 0, true, "The  answer"),
  episode("d", 1, true, "the answer"),
  episode("d", 2, false),
  episode("d", 3, false),
];
const run: CurationRun = { directory: "/runs/one", episodes, tournaments: [] };
const options = (overrides: Partial<CurationOptions> = {}): CurationOptions => ({
  select: { mode: "correct", bestN: 2, dedup: false },
  trajectory: "solver",
  valFraction: 0,
  seed: 0,
  ...overrides,
});
const filter = (text: string) => ({ tree: parseFilterExpression(text), text });
const taskOf = (id: string) => id.split(":")[0];

describe("curateRows", () => {
  it("keeps the correct attempts of tasks the filter passes, with the sampler's token ids", () => {
    const result = curateRows([run], options({ filter: filter("0 < avg < 1") }));
    expect(result.splits.train.map((row) => row.id)).toEqual(["a:0/solver", "d:0/solver", "d:1/solver"]);
    expect(result.splits.train[0]).toMatchObject({
      messages: [{ role: "user", content: "What is a?" }, { role: "assistant", content: "reply 0" }],
      sampled: [{ promptTokenIds: [2, 9, 3], completionTokenIds: [11, 12, 4] }],
      question: "What is a?",
      ground_truth: "7",
    });
    expect(result.counts).toMatchObject({ tasks: 4, filter: 2, select: 3, rows: 3 });
  });

  it("points every provenance entry at an episode of the run", () => {
    const result = curateRows([run], options({ select: { mode: "all", bestN: 2, dedup: false }, valFraction: 0.5 }));
    const ids = new Set(episodes.map((item) => item.id));
    expect(result.provenance).toHaveLength(16);
    for (const entry of result.provenance) {
      expect(ids.has(entry.episode)).toBe(true);
      expect(entry).toMatchObject({ run: "/runs/one", trajectory: "solver" });
      expect(entry.id).toBe(`${entry.episode}/solver`);
    }
  });

  it("splits train and val by task, never one task on both sides, the same way for the same seed", () => {
    const first = curateRows([run], options({ select: { mode: "all", bestN: 2, dedup: false }, valFraction: 0.5, seed: 3 }));
    const again = curateRows([run], options({ select: { mode: "all", bestN: 2, dedup: false }, valFraction: 0.5, seed: 3 }));
    const trainTasks = new Set(first.splits.train.map((row) => taskOf(row.id)));
    const valTasks = new Set(first.splits.val!.map((row) => taskOf(row.id)));
    expect(trainTasks.size).toBe(2);
    expect(valTasks.size).toBe(2);
    for (const task of valTasks) expect(trainTasks.has(task)).toBe(false);
    expect(again.splits).toEqual(first.splits);
  });

  it.each([
    { mode: "best", expected: ["a:0", "b:0", "c:0", "d:0"] },
    { mode: "best-n", expected: ["a:0", "a:1", "b:0", "b:1", "c:0", "c:1", "d:0", "d:1"] },
    { mode: "shortest", expected: ["a:0", "b:3", "d:0"] },
  ] as const)("--select $mode picks $expected", ({ mode, expected }) => {
    const result = curateRows([run], options({ select: { mode, bestN: 2, dedup: false } }));
    expect(result.splits.train.map((row) => row.id.replace("/solver", ""))).toEqual(expected);
  });

  it("--dedup drops an answer that repeats one of the task's earlier answers but for case and spacing", () => {
    const result = curateRows([run], options({ select: { mode: "correct", bestN: 2, dedup: true } }));
    expect(result.splits.train.map((row) => row.id)).not.toContain("d:1/solver");
    expect(result.counts).toMatchObject({ select: 7, dedup: 6 });
  });

  it("--max-per-task and --min-reward cap and cut the selection", () => {
    const result = curateRows([run], options({ select: { mode: "all", bestN: 2, dedup: false, maxPerTask: 1, minReward: 1 } }));
    expect(result.splits.train.map((row) => row.id)).toEqual(["a:0/solver", "b:0/solver", "d:0/solver"]);
  });

  it("names the filter term that removed every task", () => {
    const result = curateRows([run], options({ filter: filter("attempts == 4 and avg > 1") }));
    expect(result.splits.train).toEqual([]);
    expect(result.emptyReason).toBe('--filter "attempts == 4 and avg > 1" removed all 4 tasks (no task passes "avg > 1")');
  });

  it("names --select when the tasks that passed have no attempt it keeps", () => {
    const result = curateRows([run], options({ filter: filter("avg == 0") }));
    expect(result.emptyReason).toBe("--select correct found no attempt on the 1 tasks that passed the filter");
  });

  it("takes judge rows from verdicts that picked a correct answer over a wrong one", () => {
    const judgeStep = (slotA: number, slotB: number, winner: string) => ({
      input: [{ role: "user", content: `judge ${slotA} vs ${slotB}` }],
      output: "<rating_A>9</rating_A>",
      promptTokenIds: [2, 5, 3],
      completionTokenIds: [7, 4],
      info: { type: "pair", slotA, slotB, winner, parseError: false },
    });
    // Task a: attempt 0 is right, 1-3 wrong.
    const tournaments = [
      {
        taskId: "a",
        method: "v1",
        judgeTrajectory: TrajectorySchema.parse({
          name: "judge",
          steps: [judgeStep(0, 1, "A"), judgeStep(2, 0, "B"), judgeStep(0, 3, "B"), judgeStep(1, 2, "A"), judgeStep(1, 0, "tie")],
        }),
      },
    ];
    const result = curateRows([{ ...run, tournaments }], options({ trajectory: "judge" }));
    expect(result.splits.train.map((row) => row.messages[0]!.content)).toEqual(["judge 0 vs 1", "judge 2 vs 0"]);
    expect(result.provenance.map((entry) => [entry.episode, entry.step])).toEqual([
      ["a:0", 0],
      ["a:2", 1],
    ]);
    expect(result.splits.train[0]!.sampled).toEqual([{ promptTokenIds: [2, 5, 3], completionTokenIds: [7, 4] }]);
  });
});
