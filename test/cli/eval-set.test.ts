import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lastUserText, startScriptedServer, type ScriptedServer } from "../helpers/scripted-openai-server.js";
import { runCli, spawnCli } from "../helpers/run-cli.js";

// Two "models": one knows every qa answer, the other none; both answer slowly enough for the run to be killed mid-way.
const answers = new Map(
  readFileSync(new URL("../../benchmarks/qa/sample.jsonl", import.meta.url), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { question: string; ground_truth: string })
    .map((row) => [row.question, row.ground_truth]),
);
let knowing: ScriptedServer;
let guessing: ScriptedServer;
beforeAll(async () => {
  knowing = await startScriptedServer((body) => ({ text: `\\boxed{${answers.get(lastUserText(body)) ?? "0"}}`, delayMs: 40 }));
  guessing = await startScriptedServer(() => ({ text: "\\boxed{nothing}", delayMs: 40 }));
});
afterAll(async () => {
  await knowing.close();
  await guessing.close();
});

const temporary = () => mkdtempSync(path.join(os.tmpdir(), "rllm-evalset-"));
const lines = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean) : []);

describe("rllm eval --config (eval sets)", () => {
  it("runs 2 models × 2 benchmarks, is killed, resumes, and prints and writes the comparison table", async () => {
    const directory = temporary();
    const config = path.join(directory, "evalset.yaml");
    writeFileSync(
      config,
      [
        "concurrency: 1",
        "models:",
        `  - { name: knowing, baseUrl: "${knowing.url}", model: scripted, sampling: { temperature: 0 } }`,
        `  - { name: guessing, baseUrl: "${guessing.url}", model: scripted }`,
        "benchmarks:",
        "  - { benchmark: qa, limit: 4, attempts: 2 }",
        "  - { benchmark: arith, limit: 3 }",
      ].join("\n"),
    );
    const out = path.join(directory, "set");
    const child = spawnCli(["eval", "--config", config, "--out", out]);
    // Kill it (no clean shutdown) once the first cell has recorded a few episodes.
    const firstCell = path.join(out, "knowing__qa", "episodes.jsonl");
    while (lines(firstCell).length < 3 && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill("SIGKILL");
    await new Promise((resolve) => child.on("close", resolve));
    expect(existsSync(path.join(out, "set-summary.json"))).toBe(false);

    const resumed = await runCli(["eval", "--config", config, "--out", out, "--resume"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const ids = lines(firstCell).map((line) => JSON.parse(line).id as string);
    expect(new Set(ids).size).toBe(8);
    const summary = JSON.parse(readFileSync(path.join(out, "set-summary.json"), "utf8"));
    expect(summary.cells.map((cell: any) => `${cell.model}/${cell.benchmark}/${cell.status}`)).toEqual([
      "knowing/qa/complete",
      "knowing/arith/complete",
      "guessing/qa/complete",
      "guessing/arith/complete",
    ]);
    expect(summary.cells[0].accuracy).toMatchObject({ mean: 1, n: 8 });
    expect(summary.cells[0]["pass@k"]).toEqual({ "1": 1, "2": 1 });
    expect(summary.cells[2].accuracy).toMatchObject({ mean: 0, n: 8 });
    expect(resumed.stdout).toMatch(/knowing\s+qa\s+100\.0% ± 0\.0% \(8\)\s+pass@2 100\.0%/);
    expect(resumed.stdout).toMatch(/guessing\s+arith\s+0\.0% ± 0\.0% \(3\)/);
  });

  it("refuses a malformed set file with exit 2, naming the path of the bad field", async () => {
    const directory = temporary();
    const config = path.join(directory, "evalset.json");
    writeFileSync(
      config,
      JSON.stringify({ models: [{ baseUrl: knowing.url, model: "a" }, { baseUrl: "not a url", model: "b" }], benchmarks: [{ benchmark: "qa", rerank: ["v1", "best"] }] }),
    );
    const result = await runCli(["eval", "--config", config, "--out", path.join(directory, "set")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("models[1].baseUrl");
  });

  it("refuses --max-cost for a set with a model that has no prices, naming it", async () => {
    const directory = temporary();
    const config = path.join(directory, "evalset.json");
    writeFileSync(
      config,
      JSON.stringify({ models: [{ baseUrl: knowing.url, model: "a", prices: { input: 1, output: 1 } }, { baseUrl: guessing.url, model: "b" }], benchmarks: [{ benchmark: "qa" }] }),
    );
    const result = await runCli(["eval", "--config", config, "--out", path.join(directory, "set"), "--max-cost", "1"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--max-cost needs prices: --prices (a price file), or");
    expect(result.stderr).toContain("evalset.json: models[1].prices");
    expect(existsSync(path.join(directory, "set"))).toBe(false);
  });
});
