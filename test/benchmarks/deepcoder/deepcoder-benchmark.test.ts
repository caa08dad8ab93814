import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pLimit from "p-limit";
import { afterAll, describe, expect, it } from "vitest";
import { deepcoderHubRow } from "../../../benchmarks/deepcoder/deepcoder-hub-row.js";
import { deepcoderBenchmark } from "../../../benchmarks/deepcoder/index.js";
import { DeepcoderRowSchema } from "../../../benchmarks/deepcoder/deepcoder-row.js";
import { InputError } from "../../../src/core/errors/input-error.js";
import { CodeGrader } from "../../../verifiers/code/code-grader.js";
import { normalizeTests } from "../../../verifiers/code/normalize-tests.js";

const home = mkdtempSync(path.join(os.tmpdir(), "rllm-deepcoder-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe("deepcoderBenchmark", () => {
  it("loads the 50 bundled problems with decodable tests", async () => {
    const tasks = await deepcoderBenchmark.loadTasks({ home });
    expect(tasks).toHaveLength(50);
    expect(new Set(tasks.map((task) => task.id)).size).toBe(50);
    for (const task of tasks) expect(normalizeTests(task.metadata.tests, task.metadata.fn_name as string | null).tests.length).toBeGreaterThan(0);
  });

  it("gives every bundled reference solution full marks in the sandbox", async () => {
    const tasks = await deepcoderBenchmark.loadTasks({ home });
    const grader = await CodeGrader.create({ timeoutSeconds: 4, concurrency: 2 });
    const limit = pLimit(4);
    const verdicts = await Promise.all(
      tasks.map((task) =>
        limit(async () => {
          const { tests, fnName } = normalizeTests(task.metadata.tests, task.metadata.fn_name as string | null);
          return [task.id, (await grader.grade({ program: String(task.metadata.reference_solution), tests, fnName })).verdict] as const;
        }),
      ),
    );
    expect(verdicts.filter(([, verdict]) => verdict !== "accepted")).toEqual([]);
  });

  it("names the file and line of a bad --data row", async () => {
    const file = path.join(home, "bad.jsonl");
    writeFileSync(file, JSON.stringify({ id: "a", question: "q", tests: "[]" }) + "\n" + JSON.stringify({ id: "b", tests: "[]" }) + "\n");
    await expect(deepcoderBenchmark.loadTasks({ home, dataFile: file })).rejects.toThrow(InputError);
    await expect(deepcoderBenchmark.loadTasks({ home, dataFile: file })).rejects.toThrow(`${file}:2: field "question"`);
  });

  it("pulls the train and test splits rLLM uses", () => {
    expect(deepcoderBenchmark.hub?.repo).toBe("agentica-org/DeepCoder-Preview-Dataset");
    expect(Object.keys(deepcoderBenchmark.hub!.files).sort()).toEqual(["test", "train"]);
    expect(deepcoderBenchmark.hub!.files.train!.map((file) => file.split("/")[0])).toEqual(["primeintellect", "taco", "lcbv5"]);
    expect(deepcoderBenchmark.hub!.files.test!.map((file) => file.split("/")[0])).toEqual(["codeforces", "lcbv5"]);
  });
});

describe("deepcoderHubRow", () => {
  it("converts a TACO row whose tests are a JSON dict with fn_name", () => {
    const row = deepcoderHubRow({ problem: "Add.", tests: JSON.stringify({ inputs: [[1, 2]], outputs: [[3]], fn_name: "add" }), metadata: "{}" }, 7, "train");
    const parsed = DeepcoderRowSchema.parse(row);
    expect(parsed).toMatchObject({ id: "deepcoder-train-7", question: "Add.", fn_name: "add" });
    expect(normalizeTests(parsed.tests, parsed.fn_name).tests).toEqual([{ kind: "functional", input: "1\n2", output: "3" }]);
  });

  it("takes the function name of an LCB row from its metadata and keeps its starter code", () => {
    const tests = JSON.stringify([{ input: "[1]", output: "1", testtype: "functional" }]);
    const row = deepcoderHubRow({ problem: "P", tests, metadata: JSON.stringify({ func_name: "solve" }), starter_code: "class Solution:\n" }, 0, "test");
    expect(row).toMatchObject({ fn_name: "solve", starter_code: "class Solution:\n" });
    expect(normalizeTests(row.tests, row.fn_name).fnName).toBe("solve");
  });

  it("keeps a stdin row as stdin", () => {
    const row = deepcoderHubRow({ problem: "P", tests: JSON.stringify([{ input: "1\n", output: "1\n", testtype: "stdin" }]) }, 1, "test");
    expect(row.fn_name).toBeNull();
    expect(normalizeTests(row.tests, row.fn_name).tests[0]!.kind).toBe("stdin");
  });
});
