// benchmarks/sets/reasoning.yaml: valid, and run whole (one task a suite, two attempts) against a scripted server.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse, stringify } from "yaml";
import { afterAll, beforeAll, expect, it } from "vitest";
import { EvalSetConfigSchema } from "../../../src/core/eval-set-config.js";
import { benchmarks } from "../../../benchmarks/registry.js";
import { runCli } from "../../helpers/run-cli.js";
import { pythonEnv } from "../../helpers/python-env.js";
import type { ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { startReferenceServer } from "./reference-server.js";

const setFile = new URL("../../../benchmarks/sets/reasoning.yaml", import.meta.url);
let server: ScriptedServer;
beforeAll(async () => {
  server = await startReferenceServer();
});
afterAll(() => server.close());

it("names the math and code suites, each with attempts and adaptive-duel reranking, against one endpoint", () => {
  const config = EvalSetConfigSchema.parse(parse(readFileSync(setFile, "utf8")));
  expect(config.models).toHaveLength(1);
  const names = config.benchmarks.map((entry) => entry.benchmark);
  expect(names).toEqual(expect.arrayContaining(["aime24", "aime25", "hmmt25", "math500", "gsm8k", "livecodebench", "humanevalplus", "mbppplus"]));
  for (const entry of config.benchmarks) {
    expect(benchmarks.has(entry.benchmark)).toBe(true);
    expect(entry.rerank).toEqual(["adaptive-duel"]);
    expect(entry.attempts).toBeGreaterThan(1);
  }
});

it("runs every cell and prints a table of accuracy (pass@1), pass@k and rerank@1", async () => {
  const config = parse(readFileSync(setFile, "utf8"));
  config.models[0].baseUrl = server.url;
  config.models[0].model = "scripted";
  config.models[0].sampling = { temperature: 0 };
  config.concurrency = 4;
  // livecodebench's bundled problem is from release 1, which release_v6 includes.
  config.benchmarks = config.benchmarks.map((entry: Record<string, unknown>) => ({ ...entry, attempts: 2, limit: 1 }));
  const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-reasoning-set-"));
  const file = path.join(directory, "reasoning.yaml");
  writeFileSync(file, stringify(config));
  const result = await runCli(["eval", "--config", file, "--out", path.join(directory, "runs")], { RLLM_PYTHON: pythonEnv("parity") });
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toMatch(/accuracy ± stderr \(n\)\s+pass@k\s+rerank@1 adaptive-duel/);
  for (const name of config.benchmarks.map((entry: { benchmark: string }) => entry.benchmark)) {
    expect(result.stdout).toMatch(new RegExp(`local\\s+${name}\\s+100\\.0% ± 0\\.0% \\(2\\)\\s+pass@2 100\\.0%\\s+100\\.0%`));
  }
});
