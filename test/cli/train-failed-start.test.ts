// rllm train opens the run's pools before it writes the run folder: when the folder cannot be written, the pools it
// opened are closed all the same (a user cookbook's pool writes a line as it opens and as it closes).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";

const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-train-failed-start-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const cookbookSource = `
import { appendFileSync } from "node:fs";
const log = process.env.POOL_LOG;
const pool = {
  name: "counted",
  async open() { appendFileSync(log, "open\\n"); return {}; },
  async close() { appendFileSync(log, "close\\n"); },
  describe: () => ({}),
};
export default {
  name: "counted",
  description: "a cookbook with a pool that logs its opening and closing",
  pools: [pool],
  flow: async () => ({ name: "solver", steps: [], reward: null, output: "", signals: {}, info: {} }),
  evaluate: () => ({ status: "unscored", reward: 0, isCorrect: false, signals: {} }),
};
`;

describe("rllm train on a failed start", () => {
  it("closes the pools it warmed when the run folder cannot be written", async () => {
    const cookbookFile = path.join(directory, "counted", "index.ts");
    mkdirSync(path.dirname(cookbookFile), { recursive: true });
    writeFileSync(cookbookFile, cookbookSource);
    const configFile = path.join(directory, "train.json");
    writeFileSync(configFile, JSON.stringify({ benchmark: "arith", steps: 1, tasksPerStep: 1, groupSize: 2 }));
    // --out under a plain file: the checks pass (no run there to resume), creating the folder fails.
    const blocker = path.join(directory, "a-file");
    writeFileSync(blocker, "");
    const poolLog = path.join(directory, "pool.log");
    writeFileSync(poolLog, "");
    const result = await runCli(["train", cookbookFile, "--config", configFile, "--out", path.join(blocker, "run")], { RLLM_HOME: path.join(directory, "home"), POOL_LOG: poolLog });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/ENOTDIR/);
    expect(readFileSync(poolLog, "utf8").trim().split("\n")).toEqual(["open", "close"]);
  }, 120_000);
});
