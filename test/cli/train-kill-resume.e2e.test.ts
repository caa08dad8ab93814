/**
 * `rllm train` killed with SIGKILL mid-run resumes as exactly as an eval does: the kill may land inside the append of a
 * metrics.jsonl line, and --resume must move that torn tail aside, keep the lines of the checkpointed steps, and run
 * the rest, ending with the records an uninterrupted run writes.
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, spawnCli } from "../helpers/run-cli.js";

const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-train-kill-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const config = { steps: 3, tasksPerStep: 2, groupSize: 2, sampling: { maxTokens: 8 }, validation: { tasks: 2, every: 1 }, checkpointEvery: 1, concurrency: 4 };
const configFile = path.join(directory, "train.json");
writeFileSync(configFile, JSON.stringify(config));
const home = path.join(directory, "home");
const train = (out: string, extra: string[] = []) => ["train", "arith", "--config", configFile, "--out", out, ...extra];

/** Each metrics.jsonl line's kind and step, in order. */
function recordHeads(run: string): string[] {
  return readFileSync(path.join(run, "metrics.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line))
    .map((record) => `${record.kind} ${record.step}`);
}

/** The step state.json names, or undefined before the first checkpoint (or while it is being replaced). */
function checkpointedStep(run: string): number | undefined {
  try {
    return JSON.parse(readFileSync(path.join(run, "state.json"), "utf8")).step;
  } catch {
    return undefined;
  }
}

describe("rllm train killed with SIGKILL", () => {
  it("resumes after a kill that tore a metrics line, ending with the records of an uninterrupted run", async () => {
    const whole = path.join(directory, "whole");
    const uninterrupted = await runCli(train(whole), { RLLM_HOME: home });
    expect(uninterrupted.code, uninterrupted.stderr).toBe(0);

    const killed = path.join(directory, "killed");
    const child = spawnCli(train(killed), { RLLM_HOME: home });
    const exited = new Promise((resolve) => child.on("close", resolve));
    while (checkpointedStep(killed) === undefined && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill("SIGKILL");
    await exited;
    // What a kill inside an append leaves: the first bytes of a line and no newline.
    const tornTail = '{"kind":"train","step":9,"policyVersion":';
    appendFileSync(path.join(killed, "metrics.jsonl"), tornTail);

    const resumed = await runCli(train(killed, ["--resume"]), { RLLM_HOME: home });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(recordHeads(killed)).toEqual(recordHeads(whole));
    expect(readFileSync(path.join(killed, "metrics.jsonl.torn"), "utf8")).toBe(`${tornTail}\n`);
    for (const step of ["0001", "0002", "0003"]) expect(existsSync(path.join(killed, "steps", step, "episodes.jsonl"))).toBe(true);
  });

  it("refuses a state.json that is not a training state, naming the file and the field", async () => {
    const run = path.join(directory, "bad-state");
    const first = await runCli(train(run), { RLLM_HOME: home });
    expect(first.code, first.stderr).toBe(0);
    writeFileSync(path.join(run, "state.json"), JSON.stringify({ step: "three", checkpoint: "checkpoints/step-0003" }));
    const resumed = await runCli(train(run, ["--resume"]), { RLLM_HOME: home });
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain("state.json");
    expect(resumed.stderr).toContain('field "step"');
  });
});
