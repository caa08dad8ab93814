// Every built-in cookbook, on its benchmark's bundled tasks, runs the Score contract with the replies in cookbook-cases.json.
import { readFileSync } from "node:fs";
import os from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { benchmarks } from "../../benchmarks/registry.js";
import { cookbooks } from "../../cookbooks/registry.js";
import { replyEpisode } from "../helpers/reply-episode.js";
import type { Task } from "../../src/core/task.js";
import { runScoreContract } from "./score-contract.js";
import { openTestRun } from "../../src/testing/open-test-run.js";

const testRun = openTestRun();
afterAll(() => testRun.close());

interface CookbookCase {
  benchmark: string;
  cookbook: string;
  taskId: string;
  /** Replies; `{metadata.field}` stands for the task's metadata field (a reference solution). */
  gold: string;
  nearMiss: string;
  /** Metadata that makes the task ungradable (no gold answer, a free-text one, tests that do not decode). */
  ungradable: Record<string, unknown>;
}

const cases = JSON.parse(readFileSync(new URL("./cookbook-cases.json", import.meta.url), "utf8")) as CookbookCase[];
// Cookbooks graded by an environment run their flows instead (environment-cookbooks.contract.test.ts).
const environmentCases = JSON.parse(readFileSync(new URL("./environment-cookbook-cases.json", import.meta.url), "utf8")) as { cookbook: string }[];

describe("cookbook contract cases", () => {
  it("cover every built-in cookbook", () => {
    expect(new Set([...cases, ...environmentCases].map((entry) => entry.cookbook))).toEqual(new Set(cookbooks.names()));
  });
});

for (const entry of cases) {
  const load = async () => {
    const benchmark = await benchmarks.load(entry.benchmark);
    const cookbook = await cookbooks.load(entry.cookbook);
    const tasks = await benchmark.loadTasks({ home: os.tmpdir() });
    const task = tasks.find((candidate) => candidate.id === entry.taskId);
    if (!task) throw new Error(`${entry.benchmark} has no bundled task "${entry.taskId}"`);
    return { cookbook, task };
  };
  const score = (template: string, metadata: Record<string, unknown> = {}) => async () => {
    const { cookbook, task } = await load();
    const changed: Task = { ...task, metadata: { ...task.metadata, ...metadata } };
    const reply = template.replace(/\{metadata\.(\w+)\}/g, (_, field: string) => String(task.metadata[field]));
    const episode = replyEpisode(task.id, reply);
    return cookbook.evaluate(changed, episode, testRun.evaluatorContext());
  };
  runScoreContract({
    name: `${entry.cookbook} cookbook on ${entry.benchmark}`,
    gold: score(entry.gold),
    nearMiss: score(entry.nearMiss),
    ungradable: score(entry.gold, entry.ungradable),
    timeoutMs: 30_000,
  });
}
