import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InputError } from "../../src/core/errors/input-error.js";
import { readRunDirectory, readRunUpdate } from "../../src/view/read-run-directory.js";

const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-view-read-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const episode = (taskId: string, attempt: number, isCorrect: boolean) => ({
  id: `${taskId}:${attempt}`,
  taskId,
  attempt,
  trajectories: [{ name: "solver", steps: [{ input: [{ role: "user", content: "q" }], output: "a", promptTokenIds: [1, 2], completionTokenIds: [3], logprobs: [-0.1] }] }],
  score: { value: isCorrect ? 1 : 0, isCorrect, status: "scored", signals: {} },
});
const jsonl = (rows: unknown[]) => rows.map((row) => JSON.stringify(row)).join("\n") + "\n";

function folder(name: string, files: Record<string, string>): string {
  const run = path.join(directory, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(run, file)), { recursive: true });
    writeFileSync(path.join(run, file), text);
  }
  return run;
}

const tournament = {
  taskId: "t",
  method: "v1",
  budget: 1,
  chosenIndex: 1,
  chosenEpisodeId: "t:1",
  isCorrect: true,
  judgeCalls: 1,
  judgeTokens: 10,
  record: { chosenIndex: 1, tieBreak: false, scores: [0, 1], judgeCalls: 1, rounds: 1, comparisons: [], points: [], method: "v1", budget: 1, candidateCount: 2 },
  judgeTrajectory: { name: "judge", steps: [] },
};

describe("readRunDirectory", () => {
  it("reads an eval run: the config, episodes without token ids or logprobs, and tournaments without failed reranks", () => {
    const run = folder("eval", {
      "config.json": JSON.stringify({ formatVersion: 2, benchmark: "qa", model: "m" }),
      "episodes.jsonl": jsonl([episode("t", 0, false), episode("t", 1, true)]),
      "tournaments.jsonl": jsonl([{ taskId: "u", method: "v1", budget: 1, error: "judge endpoint gave up" }, tournament]),
    });
    const { run: data, cursors } = readRunDirectory(run);
    expect(data.kind).toBe("eval");
    expect(data.config?.benchmark).toBe("qa");
    expect(data.summary).toBeNull();
    expect(data.episodes.map((entry) => entry.id)).toEqual(["t:0", "t:1"]);
    expect(data.episodes[0]!.trajectories[0]!.steps[0]).not.toHaveProperty("logprobs");
    expect(data.episodes[0]!.trajectories[0]!.steps[0]).not.toHaveProperty("promptTokenIds");
    expect(data.tournaments).toHaveLength(1);
    expect(data.tournaments[0]).not.toHaveProperty("judgeTrajectory");
    expect(cursors.episodes.line).toBe(2);
  });

  it("reads a training run: metrics.jsonl records and each step's rollouts tagged with the step", () => {
    const run = folder("training", {
      "config.json": JSON.stringify({ formatVersion: 2, command: "train", cookbook: "arith" }),
      "metrics.jsonl": jsonl([{ kind: "validation", step: 0, passAt1: { mean: 0.5 } }, { kind: "train", step: 1, reward: 0.5 }]),
      "steps/0002/episodes.jsonl": jsonl([episode("b", 0, true)]),
      "steps/0001/episodes.jsonl": jsonl([episode("a", 0, false)]),
    });
    const { run: data } = readRunDirectory(run);
    expect(data.kind).toBe("training");
    expect(data.training.map((record) => record.kind)).toEqual(["validation", "train"]);
    expect(data.episodes.map((entry) => [entry.id, entry.step])).toEqual([["a:0", 1], ["b:0", 2]]);
  });

  it("names the file, line and field of a bad episode line", () => {
    const run = folder("bad", { "episodes.jsonl": jsonl([episode("t", 0, true), { id: "x", taskId: "x", attempt: -1 }]) });
    expect(() => readRunDirectory(run)).toThrow(InputError);
    expect(() => readRunDirectory(run)).toThrow(`${path.join(run, "episodes.jsonl")}:2: field "attempt"`);
  });

  it("names the file, line and field of a metrics line whose figure has the wrong type", () => {
    const run = folder("bad-metrics", { "metrics.jsonl": jsonl([{ kind: "train", step: 1, reward: 0.5 }, { kind: "validation", step: 1, passAt1: { mean: "0.5" } }]) });
    expect(() => readRunDirectory(run)).toThrow(`${path.join(run, "metrics.jsonl")}:2: field "passAt1.mean"`);
  });

  it("refuses a folder that holds no run", () => {
    expect(() => readRunDirectory(folder("empty", { "notes.txt": "" }))).toThrow("neither episodes.jsonl nor metrics.jsonl");
  });
});

describe("readRunUpdate", () => {
  it("returns only the episodes appended since the cursors, skips a torn last line, and lets a later line replace an id", () => {
    const run = folder("live", { "episodes.jsonl": jsonl([episode("t", 0, false)]) });
    const { cursors } = readRunDirectory(run);
    const file = path.join(run, "episodes.jsonl");
    appendFileSync(file, jsonl([episode("t", 1, true)]) + JSON.stringify(episode("t", 2, true)).slice(0, 30));
    const first = readRunUpdate(run, cursors);
    expect(first.episodes.map((entry) => entry.id)).toEqual(["t:1"]);
    appendFileSync(file, JSON.stringify(episode("t", 2, true)).slice(30) + "\n" + jsonl([episode("t", 1, false)]));
    const second = readRunUpdate(run, first.cursors);
    expect(second.episodes.map((entry) => [entry.id, entry.score.isCorrect])).toEqual([["t:2", true], ["t:1", false]]);
    expect(readRunUpdate(run, second.cursors).episodes).toEqual([]);
  });
});
