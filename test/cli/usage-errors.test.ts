// Usage errors exit 2 at once. These run the real binary: a hang (the embedded model's server left running) shows up
// as a test timeout, never as a wall-clock assert.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runCli } from "../helpers/run-cli.js";
import { startScriptedServer, type ScriptedServer } from "../helpers/scripted-openai-server.js";

const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-usage-"));
const fresh = (name: string) => path.join(directory, name);
// A run folder that already holds an arith run of 2 tasks made with other flags.
const heldRun = (name: string, config: Record<string, unknown> = { benchmark: "arith", limit: 99 }) => {
  const folder = fresh(name);
  mkdirSync(folder);
  writeFileSync(path.join(folder, "config.json"), JSON.stringify(config));
  return folder;
};
const exitsAtOnce = { timeout: 30_000 };

describe("rllm eval usage errors with the embedded model", () => {
  it("exits 2 when --out already holds a run", exitsAtOnce, async () => {
    const out = heldRun("held");
    const result = await runCli(["eval", "arith", "--limit", "2", "--out", out]);
    expect(result.code).toBe(2);
    // The library names the options (resume: true, out); the CLI names the flags that set them.
    expect(result.stderr).toContain(`rllm: ${out} already holds a run: pass --resume to finish it, or set --out to another folder`);
    expect(result.stderr).not.toContain("using the embedded tiny model");
  });

  it("exits 2 when --resume finds a different config", exitsAtOnce, async () => {
    const result = await runCli(["eval", "arith", "--limit", "2", "--out", heldRun("resumed"), "--resume"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("different config");
  });

  // Each cookbook checks its own --set options with its own schema, before the embedded model's server starts.
  const setCases = [
    { name: "any option for a cookbook that takes none", args: ["arith", "--set", "beta=0.5"], message: '--set beta: cookbook "arith" takes no options' },
    { name: "an unknown option", args: ["finqa", "--set", "betta=0.5"], message: '--set betta: unknown key for cookbook "finqa"; known: beta, judgeModel' },
    { name: "a bad value", args: ["finqa", "--set", "beta=high"], message: "--set beta: Invalid input: expected number, received string" },
    { name: "a judge model without --base-url", args: ["finqa", "--set", "judgeModel=gpt-4o-mini"], message: 'model "gpt-4o-mini", which needs --base-url' },
  ];
  for (const [index, { name, args, message }] of setCases.entries()) {
    it(`exits 2 on --set with ${name}`, exitsAtOnce, async () => {
      const out = fresh(`set-${index}`);
      const result = await runCli(["eval", ...args, "--limit", "1", "--out", out]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stderr).not.toContain("using the embedded tiny model");
      expect(existsSync(out)).toBe(false);
    });
  }

  it("refuses a benchmark whose prompts do not fit the embedded model, saying to use --base-url", exitsAtOnce, async () => {
    const out = fresh("qa-embedded");
    const result = await runCli(["eval", "qa", "--limit", "2", "--out", out]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("the embedded tiny model cannot run qa");
    expect(result.stderr).toContain("--base-url");
    expect(existsSync(out)).toBe(false);
  });

  it("exits 2 naming --data when it is a directory", exitsAtOnce, async () => {
    const result = await runCli(["eval", "arith", "--data", directory, "--out", fresh("data-dir")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--data ${directory}: is a directory`);
  });
});

describe("rllm eval summary", () => {
  let failing: ScriptedServer;
  beforeAll(async () => {
    failing = await startScriptedServer(() => ({ status: 500 }));
  });
  afterAll(() => failing.close());

  it("says no episode was scored when every one is an infra error, instead of 0% accuracy", exitsAtOnce, async () => {
    const result = await runCli(["eval", "qa", "--base-url", failing.url, "--model", "m", "--limit", "2", "--max-retries", "0", "--out", fresh("all-infra")]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/accuracy\s+no scored episodes \(2 infra errors/);
    expect(result.stdout).not.toContain("0.0% ±");
    // The infra-error rate is in the summary and, past 1%, warned about (issue #29).
    expect(result.stdout).toMatch(/errors\s+2 infra \(100\.0% of episodes, not scored\)/);
    expect(result.stderr).toContain("rllm: warning: 100.0% of the episodes are infrastructure errors (qa's flow and verifier), above 1%");
  });
});

describe("rllm train usage errors", () => {
  const config = (name: string, text: string) => {
    const file = fresh(name);
    writeFileSync(file, text);
    return file;
  };

  it("refuses a config that is not a JSON object", exitsAtOnce, async () => {
    const out = fresh("train-array");
    const result = await runCli(["train", "arith", "--config", config("array.json", "[]"), "--out", out]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("expected a JSON object of training settings, got an array");
    expect(existsSync(out)).toBe(false);
  });

  it("refuses a loss the backend cannot run before any rollout, leaving no run folder, so a retry is not told 'already holds a run'", exitsAtOnce, async () => {
    const out = fresh("train-geo-mean");
    const file = config("geo-mean.json", JSON.stringify({ steps: 1, tasksPerStep: 2, groupSize: 2, loss: { kind: "geo_mean" }, lossAggregation: "token-mean" }));
    const first = await runCli(["train", "arith", "--config", file, "--out", out]);
    expect(first.code).toBe(2);
    expect(first.stderr).toContain(`${file}: Backend "local" cannot honour lossAggregation with loss geo_mean "token-mean"`);
    expect(first.stderr).not.toContain("step 1");
    expect(existsSync(out)).toBe(false);
    const retry = await runCli(["train", "arith", "--config", file, "--out", out]);
    expect(retry.stderr).not.toContain("already holds a run");
  });

  it("refuses a --max-infra-error-rate outside 0..1, naming the flag", exitsAtOnce, async () => {
    const out = fresh("train-infra-rate");
    const result = await runCli(["train", "arith", "--max-infra-error-rate", "5", "--out", out]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/max-infra-error-rate/i);
    expect(existsSync(out)).toBe(false);
  });

  it("exits 2 naming --checkpoint when it does not exist", exitsAtOnce, async () => {
    const missing = fresh("no-such-checkpoint");
    const result = await runCli(["train", "arith", "--checkpoint", missing, "--out", fresh("train-checkpoint")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--checkpoint ${missing}: no such directory`);
    expect(readdirSync(directory)).not.toContain("train-checkpoint");
  });

  it("names a flag the backend cannot honour, and the backend", exitsAtOnce, async () => {
    const local = await runCli(["train", "arith", "--lora-rank", "8", "--out", fresh("train-lora")]);
    expect(local.code).toBe(2);
    expect(local.stderr).toContain('--lora-rank: backend "local" cannot honour it (only tinker, fireworks)');
    const tinker = await runCli(["train", "arith", "--backend", "tinker", "--checkpoint", directory, "--out", fresh("train-tinker-checkpoint")]);
    expect(tinker.code).toBe(2);
    expect(tinker.stderr).toContain('--checkpoint: backend "tinker" cannot honour it (only local)');
  });

  it("refuses async settings the backend cannot honour, or that need another flag, naming the flag", exitsAtOnce, async () => {
    const fireworks = await runCli(["train", "arith", "--backend", "fireworks", "--model", "accounts/x/models/y", "--async", "--out", fresh("train-fireworks-async")]);
    expect(fireworks.code).toBe(2);
    expect(fireworks.stderr).toContain('rllm train: Backend "fireworks" cannot honour --async (async.maxStaleness) "1"');
    const partial = await runCli(["train", "arith", "--partial-rollouts", "--out", fresh("train-partial")]);
    expect(partial.code).toBe(2);
    expect(partial.stderr).toContain("--partial-rollouts: only the async loop has episodes in flight across an update; add --async");
    const reweight = await runCli(["train", "arith", "--async", "--stale-groups", "reweight", "--out", fresh("train-reweight")]);
    expect(reweight.code).toBe(2);
    expect(reweight.stderr).toMatch(/field "async.staleGroups": "reweight" weighs stale groups by truncated importance ratios: set loss.tisCap \(--tis-cap\)/);
    const tis = await runCli(["train", "arith", "--backend", "fireworks", "--model", "accounts/x/models/y", "--tis-cap", "2", "--out", fresh("train-fireworks-tis")]);
    expect(tis.code).toBe(2);
    expect(tis.stderr).toContain('Backend "fireworks" cannot honour loss.tisCap "2"');
    for (const name of ["train-fireworks-async", "train-partial", "train-reweight", "train-fireworks-tis"]) expect(readdirSync(directory)).not.toContain(name);
  });
});

describe("rllm serve usage errors", () => {
  it("exits 2 naming --checkpoint when it does not exist", exitsAtOnce, async () => {
    const missing = fresh("no-such-served-checkpoint");
    const result = await runCli(["serve", "--model", "tiny", "--port", "0", "--checkpoint", missing]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--checkpoint ${missing}: no such directory`);
  });

  it("exits 2 naming --max-calls when --budget × -n asks more judge calls a request than it allows", exitsAtOnce, async () => {
    const result = await runCli(["serve", "--rerank", "v1", "--upstream", "http://127.0.0.1:9/v1", "--model", "m", "-n", "20", "--max-calls", "30", "--port", "0"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--budget 2 × -n 20 is 40 judge calls a request, more than --max-calls 30");
  });
});
