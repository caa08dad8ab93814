import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lastUserText, startScriptedServer, type ScriptedServer } from "../helpers/scripted-openai-server.js";
import { runCli, spawnCli } from "../helpers/run-cli.js";

// Two "models" on two scripted servers: one knows every qa answer, the other none. The script counts requests in
// flight across both servers (a request is in flight from its arrival until its reply is written). While `barrier` is
// set, each server holds its replies until the other one has been called: a set that ran its cells one after another
// would hold them until the fallback, which the test sees as `barrierTimedOut`.
const answers = new Map(
  readFileSync(new URL("../../benchmarks/qa/sample.jsonl", import.meta.url), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { question: string; ground_truth: string })
    .map((row) => [row.question, row.ground_truth]),
);
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));
const state = { barrier: false, barrierTimedOut: false, inFlight: 0, mostInFlight: 0, requestsBefore: new Map<ScriptedServer, number>() };
let knowing: ScriptedServer;
let guessing: ScriptedServer;

/** While the barrier is set, holds a reply until the other server has been called since the barrier was set. */
async function awaitTheOther(other: () => ScriptedServer): Promise<void> {
  if (!state.barrier) return;
  // A fallback so that a set running its cells one after another fails the test instead of hanging it.
  for (let waited = 0; other().requests.length === state.requestsBefore.get(other()); waited += 10) {
    if (waited > 15_000) {
      state.barrierTimedOut = true;
      return;
    }
    await sleep(10);
  }
}

async function inFlight<Reply>(work: () => Promise<Reply>): Promise<Reply> {
  state.inFlight += 1;
  state.mostInFlight = Math.max(state.mostInFlight, state.inFlight);
  try {
    return await work();
  } finally {
    state.inFlight -= 1;
  }
}

beforeAll(async () => {
  knowing = await startScriptedServer((body) =>
    inFlight(async () => {
      await awaitTheOther(() => guessing);
      await sleep(15);
      return { text: `\\boxed{${answers.get(lastUserText(body)) ?? "0"}}` };
    }),
  );
  guessing = await startScriptedServer(() =>
    inFlight(async () => {
      await awaitTheOther(() => knowing);
      await sleep(15);
      return { text: "\\boxed{nothing}" };
    }),
  );
});
afterAll(async () => {
  await knowing.close();
  await guessing.close();
});

const temporary = () => mkdtempSync(path.join(os.tmpdir(), "rllm-evalset-parallel-"));
const lines = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean) : []);
const cellLabels = ["knowing__qa", "knowing__arith", "guessing__qa", "guessing__arith"];
const recorded = (out: string) => cellLabels.reduce((total, label) => total + lines(path.join(out, label, "episodes.jsonl")).length, 0);
const json = (file: string) => JSON.parse(readFileSync(file, "utf8"));

/** A 2 models × 2 benchmarks set file (priced, so that the table has costs) with the given concurrency. */
function writeSet(directory: string, concurrency: number): string {
  const file = path.join(directory, `evalset-${concurrency}.yaml`);
  const prices = "prices: { input: 1000, output: 2000 }";
  writeFileSync(
    file,
    [
      `concurrency: ${concurrency}`,
      "models:",
      `  - { name: knowing, baseUrl: "${knowing.url}", model: scripted, sampling: { temperature: 0 }, ${prices} }`,
      `  - { name: guessing, baseUrl: "${guessing.url}", model: scripted, ${prices} }`,
      "benchmarks:",
      "  - { benchmark: qa, limit: 4, attempts: 2 }",
      "  - { benchmark: arith, limit: 3 }",
    ].join("\n"),
  );
  return file;
}

/** A cell's episodes by id, without what legitimately differs between runs (timings). */
function episodesOf(out: string, label: string): Record<string, unknown> {
  const byId: Record<string, unknown> = {};
  for (const line of lines(path.join(out, label, "episodes.jsonl"))) {
    const { timings: _timings, ...episode } = JSON.parse(line);
    byId[episode.id] = episode;
  }
  return byId;
}

// The sequential reference: one episode in flight at a time.
let directory: string;
let reference: string;
beforeAll(async () => {
  directory = temporary();
  reference = path.join(directory, "reference");
  const result = await runCli(["eval", "--config", writeSet(directory, 1), "--out", reference]);
  expect(result.code, result.stderr).toBe(0);
});

describe("rllm eval --config runs its cells at once", () => {
  it("calls both endpoints at once within the set's concurrency, is killed, resumes, and equals a sequential run", async () => {
    const config = writeSet(directory, 3);
    const out = path.join(directory, "parallel");
    state.requestsBefore = new Map([
      [knowing, knowing.requests.length],
      [guessing, guessing.requests.length],
    ]);
    Object.assign(state, { barrier: true, barrierTimedOut: false, mostInFlight: 0 });
    const child = spawnCli(["eval", "--config", config, "--out", out]);
    while (recorded(out) < 8 && child.exitCode === null) await sleep(20);
    child.kill("SIGKILL");
    await new Promise((resolve) => child.on("close", resolve));
    state.barrier = false;
    expect(guessing.requests.length).toBeGreaterThan(state.requestsBefore.get(guessing)!);
    expect(knowing.requests.length).toBeGreaterThan(state.requestsBefore.get(knowing)!);
    expect(state.barrierTimedOut).toBe(false);
    expect(existsSync(path.join(out, "set-summary.json"))).toBe(false);

    const resumed = await runCli(["eval", "--config", config, "--out", out, "--resume"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    // `concurrency: 3` is the whole set's: never more than 3 requests in flight across both servers.
    expect(state.mostInFlight).toBeGreaterThanOrEqual(2);
    expect(state.mostInFlight).toBeLessThanOrEqual(3);
    for (const label of cellLabels) expect(episodesOf(out, label), label).toEqual(episodesOf(reference, label));
    // The same table; costs summed in another order may differ in the last bits.
    const withoutCost = (file: string) => json(file).cells.map(({ cost: _cost, ...row }: any) => row);
    expect(withoutCost(path.join(out, "set-summary.json"))).toEqual(withoutCost(path.join(reference, "set-summary.json")));
    const referenceCells: any[] = json(path.join(reference, "set-summary.json")).cells;
    for (const [index, cell] of json(path.join(out, "set-summary.json")).cells.entries()) expect(cell.cost, cell.directory).toBeCloseTo(referenceCells[index].cost, 12);
    // The progress line shows every cell and the set's spend.
    expect(resumed.stderr).toMatch(/set .*\$\d+\.\d{4}.*knowing__qa \d+\/8, knowing__arith \d+\/3, guessing__qa \d+\/8, guessing__arith \d+\/3/);
  });

  it("stops every cell on Ctrl-C, keeping what finished", async () => {
    const out = path.join(directory, "interrupted");
    const child = spawnCli(["eval", "--config", writeSet(directory, 2), "--out", out]);
    let stderr = "";
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    while (recorded(out) < 3 && child.exitCode === null) await sleep(20);
    child.kill("SIGINT");
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect(code).toBe(1);
    expect(stderr).toContain("eval set interrupted; finish with:");
    const statuses = Object.fromEntries(
      readdirSync(out)
        .filter((name) => existsSync(path.join(out, name, "summary.json")))
        .map((name) => [name, json(path.join(out, name, "summary.json"))]),
    );
    expect(Object.values(statuses).some((summary: any) => summary.status === "cancelled")).toBe(true);
    // A cell may have finished before the interrupt; every other cell is cancelled, none left half-written.
    for (const [name, summary] of Object.entries<any>(statuses)) {
      if (summary.status !== "cancelled") expect(summary.counts.episodes, name).toBe(summary.counts.expectedEpisodes);
    }
  });

  it("--max-cost is one budget for the whole set: it stops every cell, and a resume with a higher limit gives the uninterrupted total", async () => {
    const config = writeSet(directory, 2);
    const out = path.join(directory, "budgeted");
    const referenceCells: any[] = json(path.join(reference, "set-summary.json")).cells;
    const referenceTotal = referenceCells.reduce((sum, cell) => sum + cell.cost, 0);
    const limit = Number((referenceTotal * 0.4).toFixed(4));
    const stopped = await runCli(["eval", "--config", config, "--out", out, "--max-cost", String(limit)]);
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toMatch(/episodes not started: --max-cost/);
    expect(stopped.stderr).toContain("the eval set is incomplete; finish with:");
    const stoppedCells: any[] = json(path.join(out, "set-summary.json")).cells;
    expect(stoppedCells.some((cell) => cell.status === "incomplete")).toBe(true);
    expect(stoppedCells.reduce((sum, cell) => sum + (cell.cost ?? 0), 0)).toBeLessThanOrEqual(limit);

    const resumed = await runCli(["eval", "--config", config, "--out", out, "--resume", "--max-cost", String(referenceTotal * 2)]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const cells: any[] = json(path.join(out, "set-summary.json")).cells;
    expect(cells.every((cell) => cell.status === "complete")).toBe(true);
    for (const [index, cell] of cells.entries()) expect(cell.cost, cell.directory).toBeCloseTo(referenceCells[index].cost, 12);
  });
});
