import { describe, expect, it } from "vitest";
import { assertEmbeddedModelCanRun } from "../../src/evaluation/check-embedded-model.js";
import { rllmHome } from "../../src/core/rllm-home.js";
import { InputError } from "../../src/core/errors/input-error.js";
import { benchmarks } from "../../benchmarks/registry.js";
import { cookbooks } from "../../cookbooks/registry.js";

const tasksOf = async (name: string) => (await benchmarks.load(name)).loadTasks({ split: "test", home: rllmHome() });

describe("the embedded model's fit check", () => {
  it("lets arith run: its prompts fit the tiny model's context", async () => {
    await expect(assertEmbeddedModelCanRun("arith", await cookbooks.load("arith"), await tasksOf("arith"))).resolves.toBeUndefined();
  });

  it.each(["qa", "math", "geo3k", "finqa", "deepcoder"])("refuses %s before the run, pointing to --base-url", async (name) => {
    const benchmark = await benchmarks.load(name);
    const run = assertEmbeddedModelCanRun(name, await cookbooks.load(benchmark.defaultCookbook), await tasksOf(name));
    await expect(run).rejects.toBeInstanceOf(InputError);
    await expect(run).rejects.toThrow(/cannot run .* --base-url http:\/\/localhost:8000\/v1 --model <name>/);
  });

  it("measures the prompts rather than the benchmark's name: qa with arithmetic questions fits", async () => {
    const tasks = [{ id: "1", instruction: "What is 2+3?", metadata: {} }];
    await expect(assertEmbeddedModelCanRun("qa", await cookbooks.load("qa"), tasks)).resolves.toBeUndefined();
  });
});
