/**
 * docs/package.md's benchmark, verifier and cookbook "built as the built-ins are", run as written (its `rllm-ts/…`
 * imports pointed at the sources): the gold answer earns full marks and a near miss none.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { EpisodeSchema, episodeId, type Benchmark, type Cookbook, type Score, type Task } from "../../src/core/index.js";
import { createRecordingLlmClient } from "../../src/testing/index.js";
import { codeBlockAfter } from "../helpers/doc-code-block.js";
import { openTestRun } from "../../src/testing/open-test-run.js";

const testRun = openTestRun();
afterAll(() => testRun.close());

const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const page = readFileSync(path.join(repository, "docs/package.md"), "utf8");
const marker = "`my-plugins.ts`:";
const folder = mkdtempSync(path.join(tmpdir(), "rllm-plugin-example-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface Plugins {
  sumsBenchmark: Benchmark;
  gradeSum: (answer: string, groundTruth: string) => Score;
  cookbook: Cookbook;
}

async function loadPlugins(): Promise<Plugins> {
  const file = path.join(folder, "my-plugins.ts");
  writeFileSync(file, codeBlockAfter(page, marker));
  return (await import(file)) as Plugins;
}

/** The episode of one flow run on `task` with the model replying `reply`, and the request the model saw. */
async function runFlow(cookbook: Cookbook, task: Task, reply: string) {
  const client = createRecordingLlmClient({ reply });
  const trajectory = await cookbook.flow(task, testRun.flowContext(client));
  const episode = EpisodeSchema.parse({ id: episodeId(task.id, 0), taskId: task.id, attempt: 0, trajectories: [trajectory] });
  return { episode, messages: client.calls[0]!.messages };
}

describe("the plugin example of docs/package.md", () => {
  it("imports the package's subpath entries only, as the built-in plugins must", () => {
    const block = page.slice(page.indexOf(marker));
    const imports = [...(/```ts\n([\s\S]*?)```/.exec(block)?.[1] ?? "").matchAll(/from "([^"]+)"/g)].map((match) => match[1]);
    expect(imports).toEqual(["rllm-ts/core", "rllm-ts/flows", "rllm-ts/verifiers/math"]);
  });

  it("loads tasks, runs the flow and scores the gold answer 1 and a near miss 0", async () => {
    const { sumsBenchmark, gradeSum, cookbook } = await loadPlugins();
    const tasks = await sumsBenchmark.loadTasks({ home: folder });
    expect(tasks).toHaveLength(9);
    const task = tasks.find((candidate) => candidate.id === "2+2")!;

    const gold = await runFlow(cookbook, task, "2 + 2 = \\boxed{4}");
    expect(gold.messages).toEqual([
      { role: "system", content: "Answer with \\boxed{n}." },
      { role: "user", content: "What is 2 + 2?" },
    ]);
    expect(await cookbook.evaluate(task, gold.episode, testRun.evaluatorContext())).toMatchObject({ value: 1, isCorrect: true, status: "scored" });
    const nearMiss = await runFlow(cookbook, task, "\\boxed{5}");
    expect(await cookbook.evaluate(task, nearMiss.episode, testRun.evaluatorContext())).toMatchObject({ value: 0, isCorrect: false, status: "scored" });
    expect(gradeSum("\\boxed{4}", "")).toMatchObject({ status: "unscored" });
    await expect(sumsBenchmark.loadTasks({ home: folder, dataFile: "rows.jsonl" })).rejects.toThrow("--data is not supported");
  });
});
