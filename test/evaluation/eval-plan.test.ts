// planEval: options are checked field by field, and a plan is made by reading only (no folder written, no request sent).
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/core/errors/input-error.js";
import { planEval } from "../../src/evaluation/plan-eval.js";

const temporary = () => mkdtempSync(path.join(os.tmpdir(), "rllm-plan-eval-"));

describe("planEval", () => {
  it.each([
    [{ benchmark: "arith", attempts: 0 }, 'field "attempts"'],
    [{ benchmark: "arith", sampling: { temperature: 3 } }, 'field "sampling.temperature"'],
    [{ benchmark: "arith", rerank: { methods: ["no-such-method"] } }, 'field "rerank.methods[0]"'],
    [{ benchmark: "arith", baseUrl: "not a url" }, 'field "baseUrl"'],
    [{ benchmark: "" }, 'field "benchmark"'],
  ])("refuses a bad option, naming its field (%j)", async (options, field) => {
    const error = await planEval(options as never).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toContain(`eval options: ${field}`);
  });

  it("refuses an unknown option, naming it", async () => {
    await expect(planEval({ benchmark: "arith", atempts: 2 } as never)).rejects.toThrow(/atempts/);
  });

  it("refuses maxCost without any price, naming the options as a library caller writes them and the flags for the CLI", async () => {
    const error = await planEval({ benchmark: "arith", maxCost: 1 }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toBe("maxCost needs prices: prices (a price file), or an endpoint with prices");
    expect((error as InputError).flagMessage).toBe("--max-cost needs prices: --prices (a price file), or an --endpoint with prices");
  });

  it("refuses a run folder that holds a run, telling a library caller to pass resume: true", async () => {
    const out = temporary();
    writeFileSync(path.join(out, "config.json"), "{}");
    const error = await planEval({ benchmark: "arith", limit: 1, out }).catch((thrown: unknown) => thrown);
    expect((error as InputError).message).toBe(`${out} already holds a run: pass resume: true to finish it, or set out to another folder`);
    expect((error as InputError).flagMessage).toBe(`${out} already holds a run: pass --resume to finish it, or set --out to another folder`);
    await expect(planEval({ benchmark: "arith", resume: true })).rejects.toThrow("resume: true needs out (the run folder)");
  });

  it("plans an eval on an endpoint: tasks, cookbook, endpoint and config, with no folder written and no request sent", async () => {
    const out = path.join(temporary(), "run");
    // Port 9 (discard) on loopback: nothing answers there, so a request would fail the test.
    const plan = await planEval({ benchmark: "arith", baseUrl: "http://127.0.0.1:9/v1", model: "m", limit: 2, attempts: 3, sampling: { temperature: 0.5 }, out });
    expect(plan.tasks).toHaveLength(2);
    expect(plan.cookbook.name).toBe("arith");
    expect(plan.endpoint).toMatchObject({ isEmbedded: false, baseUrl: "http://127.0.0.1:9/v1", model: "m" });
    expect(plan.directory).toBe(out);
    expect(plan.config).toMatchObject({ benchmark: "arith", cookbook: "arith", model: "m", baseUrl: "http://127.0.0.1:9/v1", limit: 2, attempts: 3, seed: 0, timeoutSeconds: 600 });
    expect(plan.config.sampling).toEqual({ temperature: 0.5, topP: undefined, maxTokens: undefined });
    expect(plan.options).toMatchObject({ concurrency: 16, maxRetries: 8, split: "test", resume: false });
    expect(existsSync(out)).toBe(false);
  });

  it("plans the embedded model when no endpoint is named", async () => {
    const plan = await planEval({ benchmark: "arith", limit: 1, out: path.join(temporary(), "run") });
    expect(plan.endpoint).toEqual({ isEmbedded: true, model: "tiny" });
    expect(plan.config.baseUrl).toBe("embedded");
  });

  it("records the cookbook options as given and refuses them for a cookbook that takes none", async () => {
    await expect(planEval({ benchmark: "arith", cookbookOptions: { beta: 1 } })).rejects.toThrow('cookbookOptions beta: cookbook "arith" takes no options');
  });
});
