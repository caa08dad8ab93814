/**
 * `rllm train --async` killed and resumed, as a user would: Ctrl-C (SIGINT) checkpoints the last update and prints a
 * resume command that then finishes the run; SIGKILL loses the updates after the last checkpoint, and the resume
 * carries over every finished rollout group the checkpoint's weights sampled. Either way no rollout group is trained
 * twice and none that finished is lost: each is trained once, dropped as stale once, or still waiting in rollouts.jsonl.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { binPath, runCli, spawnCli } from "../helpers/run-cli.js";

const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-train-async-kill-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const config = {
  steps: 5,
  tasksPerStep: 3,
  groupSize: 2,
  sampling: { maxTokens: 8 },
  validation: { tasks: 2, every: 10 },
  concurrency: 4,
};
const asyncConfig = { async: { maxStaleness: 1 } };
const home = path.join(directory, "home");
const repository = path.resolve(path.dirname(binPath), "..");
// A shell's environment, as a user's terminal has it: no npm variables and no node_modules/.bin on the path (vitest may
// run under npm, which adds both), so the printed command is run as the user would run it.
const shellEnvironment = Object.fromEntries(
  Object.entries({ ...process.env, RLLM_HOME: home, PATH: (process.env.PATH ?? "").split(path.delimiter).filter((folder) => !folder.endsWith(path.join("node_modules", ".bin"))).join(path.delimiter) }).filter(([name]) => !name.startsWith("npm_")),
);

function writeConfig(name: string, changes: Record<string, unknown>): string {
  const file = path.join(directory, name);
  writeFileSync(file, JSON.stringify({ ...config, ...changes }));
  return file;
}

interface GroupLine {
  slot: number;
  taskIndex: number;
  oldestVersion: number;
  newestVersion: number;
}

const lines = (file: string) => readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line));
const trainRecords = (run: string) => lines(path.join(run, "metrics.jsonl")).filter((record) => record.kind === "train");
const groupKey = (slot: number, task: number) => `${slot}:${task}`;

/** Waits until `run`'s metrics.jsonl holds a train record of `step` (or the child ended). */
async function waitForStep(run: string, step: number, child: { exitCode: number | null }): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`rllm train ended (${child.exitCode}) before step ${step}`);
    try {
      if (trainRecords(run).some((record) => record.step >= step)) return;
    } catch {
      // metrics.jsonl not written yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Every group trained or dropped by the run's records: each once; and the finished groups `before` all accounted for. */
function expectEachGroupOnce(run: string, steps: number, before: readonly GroupLine[]): void {
  const records = trainRecords(run);
  expect(records.map((record) => record.step)).toEqual(Array.from({ length: steps }, (_, index) => index + 1));
  const trained = records.flatMap((record) => record.groups.map((group: { slot: number; task: number }) => groupKey(group.slot, group.task)));
  const dropped = records.flatMap((record) => record.droppedGroups.map((group: { slot: number; task: number }) => groupKey(group.slot, group.task)));
  const settled = [...trained, ...dropped];
  expect(new Set(settled).size).toBe(settled.length);
  const waiting = new Set(lines(path.join(run, "rollouts.jsonl")).map((group: GroupLine) => groupKey(group.slot, group.taskIndex)));
  for (const group of before) {
    const key = groupKey(group.slot, group.taskIndex);
    expect(settled.includes(key) || waiting.has(key), `group ${key} finished before the kill and was lost`).toBe(true);
  }
}

describe("rllm train killed and resumed", () => {
  // Synchronous too: Ctrl-C there said "--resume continues from the last checkpoint" when none existed, and the resume
  // started over from step 0.
  it.each([
    ["the synchronous loop", {}],
    ["--async", asyncConfig],
  ])("%s: on Ctrl-C checkpoints the last update and prints a resume command that finishes the run", async (name, extra) => {
    const run = path.join(directory, `interrupted-${name.replace(/\W/g, "")}`);
    // No checkpoint of its own before the end, and steps long and many enough that the interrupt lands before it (an
    // async step of the small config takes well under 100 ms): the only checkpoint the resume can use is the interrupt's.
    const slower = { steps: 12, groupSize: 4, sampling: { maxTokens: 64 }, checkpointEvery: 100 };
    const args = ["train", "arith", "--config", writeConfig(`interrupted-${name.replace(/\W/g, "")}.json`, { ...slower, ...extra }), "--out", run];
    // Started as `node bin/rllm.js` from the checkout, outside npm, as a user types it.
    const child = spawn(process.execPath, [binPath, ...args], { cwd: repository, env: shellEnvironment, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    await waitForStep(run, 2, child);
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    const state = JSON.parse(readFileSync(path.join(run, "state.json"), "utf8"));
    expect(state.step).toBeGreaterThanOrEqual(2);
    expect(state.step).toBeLessThan(12);
    expect(stderr).toContain(`checkpoint of step ${state.step} saved at the interrupt`);
    const hint = /continue with: (.+)$/m.exec(stderr)?.[1];
    expect(hint, stderr).toBeDefined();
    const before = lines(path.join(run, "rollouts.jsonl")) as GroupLine[];

    // The printed command, typed as shown in the checkout's shell.
    expect(hint).toBe(`npx rllm ${[...args, "--resume"].join(" ")}`);
    const shell = spawn("bash", ["-c", hint!], { cwd: repository, env: shellEnvironment, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    shell.stdout!.on("data", (chunk) => (output += chunk));
    shell.stderr!.on("data", (chunk) => (output += chunk));
    expect(await new Promise((resolve) => shell.on("close", resolve)), output).toBe(0);
    expect(output).toMatch(new RegExp(`resuming from step ${state.step} \\(checkpoint`));
    expectEachGroupOnce(run, 12, before);
  });

  it("--async after SIGKILL resumes from the last checkpoint, carrying over the groups its weights sampled and running the rest again", async () => {
    const run = path.join(directory, "killed");
    const args = ["train", "arith", "--config", writeConfig("killed.json", { groupSize: 4, sampling: { maxTokens: 64 }, checkpointEvery: 2, ...asyncConfig }), "--out", run];
    const child = spawnCli(args, { RLLM_HOME: home });
    const exited = new Promise((resolve) => child.on("close", resolve));
    // Killed after step 3: the step-2 checkpoint is the last, and step 3's update is lost with the process.
    await waitForStep(run, 3, child);
    child.kill("SIGKILL");
    await exited;
    const state = JSON.parse(readFileSync(path.join(run, "state.json"), "utf8"));
    expect(state.step).toBeLessThan(5);
    const before = lines(path.join(run, "rollouts.jsonl")) as GroupLine[];
    const usable = before.filter((group) => group.newestVersion <= state.policyVersion);
    const resumed = await runCli([...args, "--resume"], { RLLM_HOME: home });
    expect(resumed.code, resumed.stderr).toBe(0);
    // The groups the checkpoint's weights sampled and no kept update trained are carried over, not sampled again.
    const settledBefore = new Set(
      trainRecords(run)
        .filter((record) => record.step <= state.step)
        .flatMap((record) => [...record.groups, ...record.droppedGroups].map((group: { slot: number; task: number }) => groupKey(group.slot, group.task))),
    );
    const carried = new Set(usable.filter((group) => !settledBefore.has(groupKey(group.slot, group.taskIndex))).map((group) => groupKey(group.slot, group.taskIndex)));
    expect(resumed.stderr).toContain(`resuming from step ${state.step} (checkpoint checkpoints/step-000${state.step}); ${carried.size} finished rollout groups carried over`);
    expectEachGroupOnce(run, 5, usable);
  });
});
