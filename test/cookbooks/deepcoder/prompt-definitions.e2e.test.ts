// A HumanEval test that calls a helper the prompt defines (HumanEval/32's poly, /38's encode_cyclic, /50's
// encode_shift) must call the prompt's, not the program's: a program redefining the helper passed (issue #44).
import { readFileSync } from "node:fs";
import os from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { benchmarks } from "../../../benchmarks/registry.js";
import { cookbooks } from "../../../cookbooks/registry.js";
import { promptDefinitions } from "../../../cookbooks/deepcoder/prompt-definitions.js";
import { replyEpisode } from "../../helpers/reply-episode.js";
import type { Task } from "../../../src/core/task.js";
import { openTestRun } from "../../../src/testing/open-test-run.js";

// The cookbooks grade on the run's code pool: real sandbox slots, opened on the first grade and closed at the end.
const testRun = openTestRun();
afterAll(() => testRun.close());

const humanEval = new Map(
  readFileSync(new URL("../../verifiers/code/human-eval-canonical.jsonl", import.meta.url), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { id: string; program: string; entry_point: string; test: string })
    .map((row) => [row.id, row] as const),
);

async function grade(cookbookName: string, task: Task, program: string) {
  const cookbook = await cookbooks.load(cookbookName);
  const reply = `\`\`\`python\n${program}\n\`\`\``;
  const episode = replyEpisode(task.id, reply);
  return cookbook.evaluate(task, episode, testRun.evaluatorContext());
}

/** An evalplus task in the form the humaneval benchmark caches (benchmarks/humaneval/index.ts). */
function humanEvalTask(id: string): Task {
  const row = humanEval.get(id)!;
  // The canonical program is the prompt followed by the body; the definitions before the entry point are the prompt's.
  return {
    id,
    instruction: row.program,
    metadata: { id, question: row.program, entry_point: row.entry_point, tests: [{ testtype: "assert", code: `${row.test}\ncheck(${row.entry_point})\n` }] },
  };
}

const identityHelpers: Record<string, string> = {
  "HumanEval/38": "def encode_cyclic(s):\n    return s\n\ndef decode_cyclic(s):\n    return s\n",
  "HumanEval/50": "def encode_shift(s):\n    return s\n\ndef decode_shift(s):\n    return s\n",
  "HumanEval/32": "def poly(xs, x):\n    return 0.0\n\ndef find_zero(xs):\n    return 0.0\n",
};

describe("promptDefinitions", () => {
  it("is the prompt's code before the entry point's definition", () => {
    const definitions = promptDefinitions(humanEval.get("HumanEval/38")!.program, "decode_cyclic");
    expect(definitions).toContain("def encode_cyclic(s: str):");
    expect(definitions).not.toContain("def decode_cyclic");
  });

  it("is empty for a prompt that defines nothing before it, or has no such entry point", () => {
    expect(promptDefinitions('"""\nWrite a function to add.\nassert add(1, 2) == 3\n"""\n', "add")).toBe("");
    expect(promptDefinitions("def add(a, b):\n    pass\n", "add")).toBe("");
    expect(promptDefinitions("import math\n\ndef helper(x):\n    return x\n", "add")).toBe("");
    expect(promptDefinitions("def add_two(a):\n    pass\n\ndef add(a, b):\n    pass\n", "add")).toContain("def add_two");
  });
});

describe("a program that redefines the prompt's helper", () => {
  it.each(Object.keys(identityHelpers))("scores 0 on %s's own check() in the evalplus cookbook; the canonical solution still scores 1", async (id) => {
    const task = humanEvalTask(id);
    expect(await grade("evalplus", task, identityHelpers[id]!)).toMatchObject({ value: 0, status: "scored" });
    expect(await grade("evalplus", task, humanEval.get(id)!.program)).toMatchObject({ value: 1, status: "scored" });
  }, 120_000);

  it.each(["humaneval-32-assert", "humaneval-38-assert"])("scores 0 on the deepcoder sample's %s; its reference solution still scores 1", async (taskId) => {
    const tasks = await (await benchmarks.load("deepcoder")).loadTasks({ home: os.tmpdir() });
    const task = tasks.find((candidate) => candidate.id === taskId)!;
    const hostile = taskId.startsWith("humaneval-32") ? identityHelpers["HumanEval/32"]! : identityHelpers["HumanEval/38"]!;
    expect(await grade("deepcoder", task, hostile)).toMatchObject({ value: 0, status: "scored" });
    expect(await grade("deepcoder", task, String(task.metadata.reference_solution))).toMatchObject({ value: 1, status: "scored" });
  }, 120_000);
});
