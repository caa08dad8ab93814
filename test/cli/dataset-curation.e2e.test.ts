// From an eval run to a fine-tuned checkpoint through the real binary: `rllm dataset from-eval` (usage errors, an
// empty selection, provenance, judge rows), `rllm dataset register` / `remove`, and a few steps of `rllm sft`.
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, spawnCli } from "../helpers/run-cli.js";

const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-curation-"));
const home = path.join(directory, "home");
const run = path.join(directory, "run");
const cli = (args: string[]) => runCli(args, { RLLM_HOME: home });
const manifestOf = (name: string) => JSON.parse(readFileSync(path.join(home, "datasets", name, "manifest.json"), "utf8"));
const jsonLines = (file: string) => readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line));

beforeAll(async () => {
  // 4 tasks × 4 attempts with a V1 tournament each: solver rows and judge verdicts from the embedded model.
  const result = await cli(["eval", "arith", "--limit", "4", "-n", "4", "--rerank", "v1", "--out", run]);
  expect(result.code).toBe(0);
}, 120_000);
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("rllm dataset from-eval", () => {
  it("exits 2 with a caret under the bad character of a filter", async () => {
    const result = await cli(["dataset", "from-eval", run, "--name", "bad", "--filter", "0 < avg <> 1"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`  0 < avg <> 1\n  ${" ".repeat(9)}^`);
  });

  it("exits 2 on a name the runs do not have, pointing at it", async () => {
    const result = await cli(["dataset", "from-eval", run, "--name", "bad", "--filter", "avg > 0 and tokns < 5"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown name "tokns"');
    expect(result.stderr).toContain(`\n  ${" ".repeat(12)}^`);
  });

  it("exits 2 on an unknown run directory", async () => {
    const result = await cli(["dataset", "from-eval", path.join(directory, "nowhere"), "--name", "bad"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("no such run directory");
  });

  it("refuses runs of different benchmarks unless --force", async () => {
    const other = path.join(directory, "other-run");
    cpSync(run, other, { recursive: true });
    const config = JSON.parse(readFileSync(path.join(other, "config.json"), "utf8"));
    writeFileSync(path.join(other, "config.json"), JSON.stringify({ ...config, benchmark: "math" }));
    const refused = await cli(["dataset", "from-eval", run, other, "--name", "mixed", "--dry-run"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("different benchmarks");
    const forced = await cli(["dataset", "from-eval", run, other, "--name", "mixed", "--dry-run", "--force"]);
    expect(forced.code).toBe(0);
  });

  it("exits 1 naming the filter term that removed every task", async () => {
    const result = await cli(["dataset", "from-eval", run, "--name", "empty", "--filter", "attempts == 4 and avg > 1"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('removed all 4 tasks (no task passes "avg > 1")');
    expect(existsSync(path.join(home, "datasets", "empty"))).toBe(false);
  });

  it("writes rows whose manifest entries each point at an episode of the run, and the command", async () => {
    const result = await cli(["dataset", "from-eval", run, "--name", "solved", "--select", "correct", "--val-fraction", "0.25"]);
    expect(result.code).toBe(0);
    const manifest = manifestOf("solved");
    const episodes = new Set(jsonLines(path.join(run, "episodes.jsonl")).map((episode) => episode.id));
    const rows = [...jsonLines(path.join(home, "datasets", "solved", "train.jsonl")), ...jsonLines(path.join(home, "datasets", "solved", "val.jsonl"))];
    expect(manifest.rows.map((entry: { id: string }) => entry.id).sort()).toEqual(rows.map((row) => row.id).sort());
    for (const entry of manifest.rows) {
      expect(entry.run).toBe(run);
      expect(episodes.has(entry.episode)).toBe(true);
    }
    expect(manifest.command).toEqual(["rllm", "dataset", "from-eval", run, "--name", "solved", "--select", "correct", "--val-fraction", "0.25"]);
    // The run evaluated arith's default split, test: the provenance says so, for the contamination warnings.
    expect(manifest.sourceSplits).toEqual(["test"]);
    expect(rows.every((row) => row.sampled?.[0]?.completionTokenIds.length > 0)).toBe(true);
  });

  it("takes judge rows from the tournaments, each pointing at a judge call of the run", async () => {
    const result = await cli(["dataset", "from-eval", run, "--name", "judge", "--trajectory", "judge"]);
    expect(result.code).toBe(0);
    const tournaments = jsonLines(path.join(run, "tournaments.jsonl"));
    for (const entry of manifestOf("judge").rows) {
      const taskId = entry.episode.split(":")[0];
      const tournament = tournaments.find((line) => line.taskId === taskId);
      expect(tournament.judgeTrajectory.steps[entry.step].info.type).toBe("pair");
    }
  });
});

describe("rllm dataset register and remove", () => {
  it("names the file, line and field of every malformed row", async () => {
    const jsonl = path.join(directory, "rows.jsonl");
    writeFileSync(jsonl, '{"id": "a", "question": "1+1", "ground_truth": "2"}\n{"id": "b", "question": "2+2"}\n');
    const fromJsonl = await cli(["dataset", "register", "mine", "--file", jsonl]);
    expect(fromJsonl.code).toBe(2);
    expect(fromJsonl.stderr).toContain(`${jsonl}:2: field "ground_truth"`);
    const csv = path.join(directory, "rows.csv");
    writeFileSync(csv, 'id,messages\nc1,"[{""role"": ""user"", ""content"": ""hi""}, {""role"": ""assistant"", ""content"": ""yo""}]"\nc2,"[{""role"": ""user"", ""content"": ""hi""}]"\n');
    const fromCsv = await cli(["dataset", "register", "mine", "--file", csv]);
    expect(fromCsv.code).toBe(2);
    expect(fromCsv.stderr).toContain(`${csv}:3: field "messages"`);
  });

  it("adds a new split to a registered dataset, and refuses to replace a split without --force", async () => {
    const question = (a: number) => ({ id: `q${a}`, question: `What is ${a}+1? Show each step, then give the final answer as \\boxed{n}.`, ground_truth: String(a + 1) });
    const train = path.join(directory, "split-train.json");
    const test = path.join(directory, "split-test.json");
    writeFileSync(train, JSON.stringify([question(1), question(2)]));
    writeFileSync(test, JSON.stringify([question(3)]));
    expect((await cli(["dataset", "register", "twosplits", "--file", train, "--split", "train", "--benchmark", "arith"])).code).toBe(0);
    expect((await cli(["dataset", "register", "twosplits", "--file", test, "--split", "test", "--benchmark", "arith"])).code).toBe(0);
    const manifest = JSON.parse(readFileSync(path.join(home, "datasets", "twosplits", "manifest.json"), "utf8"));
    expect(manifest.splits).toEqual({ train: { rows: 2 }, test: { rows: 1 } });
    expect(jsonLines(path.join(home, "datasets", "twosplits", "train.jsonl")).map((row) => row.id)).toEqual(["q1", "q2"]);
    const again = await cli(["dataset", "register", "twosplits", "--file", test, "--split", "test", "--benchmark", "arith"]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("registered with split test");
    expect((await cli(["dataset", "remove", "twosplits"])).code).toBe(0);
  });

  it("makes rows a benchmark rllm eval runs by name, and removes it", async () => {
    const rows = path.join(directory, "good.json");
    writeFileSync(rows, JSON.stringify([{ id: "a", question: "What is 2+3? Show each step, then give the final answer as \\boxed{n}.", ground_truth: "5" }]));
    expect((await cli(["dataset", "register", "mine", "--file", rows, "--split", "test", "--benchmark", "arith"])).code).toBe(0);
    const evaluated = await cli(["eval", "mine", "--out", path.join(directory, "mine-run")]);
    expect(evaluated.code).toBe(0);
    expect(jsonLines(path.join(directory, "mine-run", "episodes.jsonl"))[0].taskId).toBe("a");
    expect((await cli(["dataset", "remove", "mine"])).code).toBe(0);
    const gone = await cli(["eval", "mine"]);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain('"mine"');
  });
});

describe("rllm sft", () => {
  it("trains a few steps, writes metrics and servable checkpoints, and resumes from the last one", async () => {
    const out = path.join(directory, "sft");
    const args = ["sft", "solved", "--batch-size", "4", "--save-every", "1", "--val-every", "1", "--lr-schedule", "linear", "--out", out];
    const first = await cli(args);
    expect(first.code).toBe(0);
    const trainSteps = () => jsonLines(path.join(out, "metrics.jsonl")).filter((line) => line.kind === "train").map((line) => line.step);
    const steps = trainSteps();
    expect(steps.length).toBeGreaterThan(1);
    const last = steps.at(-1);
    // One naming scheme with rllm train: step-0003.
    const folder = (step: number) => path.join(out, "checkpoints", `step-${String(step).padStart(4, "0")}`);
    for (const file of ["manifest.json", "weights.bin", "trainer-state.json"]) expect(existsSync(path.join(folder(last), file))).toBe(true);
    expect(first.stdout).toContain(`checkpoint ${folder(last)}; serve it: rllm serve --model tiny --checkpoint ${folder(last)}`);
    // "solved" holds rows of a test-split eval: training on them, and serving the result, warn of a contaminated eval.
    expect(first.stderr).toContain("rllm: warning: dataset solved was curated from eval runs on the test split of arith: an eval of the trained model on that split is contaminated");
    const server = spawnCli(["serve", "--model", "tiny", "--checkpoint", folder(last), "--port", "0"], { RLLM_HOME: home });
    let serverErr = "";
    server.stderr!.on("data", (chunk) => (serverErr += chunk));
    await expect.poll(() => serverErr, { timeout: 30_000 }).toContain("tiny model at http");
    server.kill("SIGINT");
    expect(serverErr).toContain("rllm: warning: this checkpoint was trained on rows from the test split of arith: an rllm eval of it on that split is contaminated");
    const validation = jsonLines(path.join(out, "metrics.jsonl")).filter((line) => line.kind === "validation");
    expect(validation[0]).toMatchObject({ step: 0 });
    expect(validation[0].tokens).toBeGreaterThan(0);
    // Lose the last checkpoint: --resume restores the one before and runs the last step again, once. That one gets
    // the unpadded name of runs saved before the one naming scheme, which still resume.
    rmSync(folder(last), { recursive: true });
    renameSync(folder(last - 1), path.join(out, "checkpoints", `step-${last - 1}`));
    const resumed = await cli([...args, "--resume"]);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(`resuming after step ${last - 1}`);
    expect(trainSteps()).toEqual(steps);
  });

  it("refuses a backend that is not registered, saying so", async () => {
    const result = await cli(["sft", "solved", "--backend", "tpu-pod"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('"tpu-pod"');
  });

  it("refuses a flag the chosen backend does not read, naming flag and backend", async () => {
    const result = await cli(["sft", "solved", "--backend", "local", "--lora-rank", "8"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--lora-rank: backend "local" cannot honour it');
  });
});
