/** `rllm train` on multi-turn episodes: two local steps with a cookbook built on the environment flow, and `rllm eval` on a task folder. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";

const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-multi-turn-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const cookbook = path.join(import.meta.dirname, "../fixtures/cookbooks/two-turn-arith.ts");

describe("multi-turn episodes through the CLI", () => {
  it("train: two local steps on a two-turn cookbook, each episode's steps carrying token ids", async () => {
    const config = {
      benchmark: "arith",
      steps: 2,
      tasksPerStep: 2,
      groupSize: 2,
      sampling: { maxTokens: 24 },
      transform: { dropUniformGroups: false },
      validation: { tasks: 1 },
      concurrency: 4,
    };
    const configFile = path.join(directory, "train.json");
    writeFileSync(configFile, JSON.stringify(config));
    const out = path.join(directory, "train-run");
    const result = await runCli(["train", cookbook, "--config", configFile, "--out", out]);
    expect(result.code, result.stderr).toBe(0);
    expect(`${result.stdout}${result.stderr}`).toMatch(/^step 2\/2 · reward .* groups 2 kept/m);
    const episodes = readFileSync(path.join(out, "steps", "0001", "episodes.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
    const steps = episodes.flatMap((episode) => episode.trajectories[0].steps);
    expect(steps.length).toBeGreaterThan(episodes.length); // more than one turn per episode
    for (const step of steps) expect(step.completionTokenIds.length).toBeGreaterThan(0);
  });

  it("eval: runs a Harbor task folder given as harbor:<path> with --agent oracle", async () => {
    const folder = path.join(import.meta.dirname, "../../benchmarks/terminal-sample/tasks/csv-column-sum");
    // The oracle calls no model: an endpoint that is never reached spares the embedded model's start-up.
    const result = await runCli(["eval", `harbor:${folder}`, "--agent", "oracle", "--base-url", "http://127.0.0.1:9/v1", "--model", "none", "--out", path.join(directory, "eval-run")]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/accuracy\s+100\.0%/);
  });
});
