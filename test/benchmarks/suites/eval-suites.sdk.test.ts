/**
 * `rllm eval <suite> --limit 3` for every paper suite, offline on its bundled sample against a scripted
 * OpenAI-compatible server that answers each task with its reference answer or solution; and `rllm eval aime25 -n 16
 * --rerank adaptive-duel` end to end, the server judging pairs by their final answers.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/run-cli.js";
import type { ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { pythonEnv } from "../../helpers/python-env.js";
import { sampledSuites, sampleOf, startReferenceServer } from "./reference-server.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startReferenceServer();
});
afterAll(() => server.close());

const out = () => path.join(mkdtempSync(path.join(os.tmpdir(), "rllm-suite-eval-")), "run");
// EvalPlus's tests import numpy: the pinned "parity" environment's Python has it (see code-samples.sdk.test.ts).
const environment = () => ({ RLLM_PYTHON: pythonEnv("parity") });

describe("rllm eval <suite> --limit 3 on the bundled samples", () => {
  it.each(sampledSuites)("%s: every reference reply scores 1", async (name) => {
    const directory = out();
    const result = await runCli(["eval", name, "--base-url", server.url, "--model", "scripted", "--limit", "3", "--concurrency", "2", "--out", directory], environment());
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(path.join(directory, "summary.json"), "utf8"));
    expect(summary.metrics.accuracy, JSON.stringify(summary.metrics)).toMatchObject({ mean: 1, n: Math.min(3, sampleOf(name).length) });
  });

  it("gpqa-diamond: exits 2 saying it ships no rows and how to pull them", async () => {
    const result = await runCli(["eval", "gpqa-diamond", "--base-url", server.url, "--model", "scripted", "--limit", "3", "--out", out()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/gpqa-diamond ships no rows .*HF_TOKEN and run `rllm dataset pull gpqa-diamond`/);
  });
});

describe("rllm eval aime25 -n 16 --rerank adaptive-duel", () => {
  it("samples 16 attempts a task, reranks them with adaptive-duel and reports rerank@1 at least pass@1", async () => {
    const directory = out();
    const result = await runCli(
      ["eval", "aime25", "--base-url", server.url, "--model", "scripted", "-n", "16", "--rerank", "adaptive-duel", "--limit", "3", "--temperature", "0.7", "--out", directory],
    );
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(path.join(directory, "summary.json"), "utf8"));
    expect(summary.metrics["pass@k"]["16"]).toBe(1);
    expect(summary.metrics["rerank@1"]["adaptive-duel"]).toBeGreaterThanOrEqual(summary.metrics["pass@k"]["1"]);
    expect(summary.metrics.judgeCalls["adaptive-duel"]).toBeGreaterThan(0);
    expect(result.stdout).toMatch(/rerank@1 \[adaptive-duel\]/);
  });
});
