import { Command } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import { addCommand } from "../../src/cli/add-command.js";
import { simulateCommand } from "../../src/cli/commands/simulate-command.js";

afterEach(() => vi.restoreAllMocks());

async function simulate(args: string[]): Promise<string> {
  const printed: string[] = [];
  vi.spyOn(console, "log").mockImplementation((text: string) => printed.push(text));
  const program = new Command("rllm").exitOverride();
  addCommand(program, simulateCommand);
  await program.parseAsync(["node", "rllm", "simulate", "tournament", ...args]);
  return printed.join("\n");
}

describe("rllm simulate tournament", () => {
  it("prints one JSON row per method, budget and judge accuracy with the documented fields", async () => {
    const output = await simulate(["--methods", "v1,random,knockout", "--n", "8", "--judge-accuracy", "0.6,0.9", "--budgets", "1,2", "--trials", "200", "--json"]);
    const rows = JSON.parse(output);
    // v1 and random at two budgets, knockout once (its cost is fixed), for each of two accuracies.
    expect(rows).toHaveLength(10);
    for (const row of rows) {
      expect(Object.keys(row)).toEqual(
        expect.arrayContaining(["method", "budget", "n", "judgeAccuracy", "selectAccuracy", "stderr", "judgeCalls"]),
      );
      expect(row.n).toBe(8);
    }
    expect(rows.filter((row: { judgeAccuracy: number }) => row.judgeAccuracy === 0.9)).toHaveLength(5);
    expect(rows.find((row: { method: string }) => row.method === "knockout").judgeCalls).toBe(7);
  });

  it("prints a table per judge accuracy", async () => {
    const output = await simulate(["--methods", "v1", "--n", "4", "--budgets", "2", "--trials", "100", "--correct-count", "1"]);
    expect(output).toMatch(/judge accuracy 0\.7, n 4: pass@1 0\.250, pass@N 1\.000/);
    expect(output).toMatch(/v1\s+2×N\s+8\.0\s+0\.\d{3}/);
  });

  it("runs adaptive-duel over several candidate counts with 95% intervals and the spread of its calls", async () => {
    const output = await simulate(["--methods", "adaptive-duel,majority", "--n", "4,6", "--budgets", "1.5", "--trials", "100", "--answers", "distinct", "--json"]);
    const rows = JSON.parse(output);
    expect(rows.map((row: { n: number; method: string }) => `${row.n} ${row.method}`)).toEqual(["4 adaptive-duel", "4 majority", "6 adaptive-duel", "6 majority"]);
    for (const row of rows) {
      expect(row.ci95[0]).toBeLessThanOrEqual(row.selectAccuracy);
      expect(row.ci95[1]).toBeGreaterThanOrEqual(row.selectAccuracy);
      expect(row.judgeCallsStderr).toBeGreaterThanOrEqual(0);
    }
    // Distinct answers leave majority vote a random pick: its accuracy is pass@1's.
    const majority = rows.find((row: { method: string; n: number }) => row.method === "majority" && row.n === 6);
    expect(Math.abs(majority.selectAccuracy - majority.passAt1)).toBeLessThan(0.15);
  });

  it("rejects a confidence outside 0.5–1 naming the flag", async () => {
    await expect(simulate(["--methods", "adaptive-duel", "--confidence", "1.5"])).rejects.toThrow(/--confidence/);
  });

  it("rejects an unknown method naming the flag", async () => {
    await expect(simulate(["--methods", "v1,best"])).rejects.toThrow(/--methods/);
  });
});
