// Every `rllm grade` verifier runs the Score contract on its rows from grade-verifier-cases.json.
import { readFileSync } from "node:fs";
import { afterAll } from "vitest";
import { gradeVerifiers } from "../../verifiers/index.js";
import { runScoreContract } from "./score-contract.js";
import { openTestRun } from "../../src/testing/open-test-run.js";

const testRun = openTestRun();
afterAll(() => testRun.close());

type Case = "gold" | "nearMiss" | "ungradable";
const cases = JSON.parse(readFileSync(new URL("./grade-verifier-cases.json", import.meta.url), "utf8")) as Record<
  string,
  { flags: Record<string, unknown> } & Record<Case, unknown>
>;

for (const verifier of await gradeVerifiers.loadAll()) {
  const rows = cases[verifier.name];
  if (!rows) throw new Error(`grade-verifier-cases.json has no cases for the "${verifier.name}" verifier`);
  const grade = (name: Case) => async () => {
    const [score] = await verifier.gradeRows([verifier.rowSchema.parse(rows[name])], { concurrency: 1, flags: rows.flags }, testRun.evaluatorContext());
    return score!;
  };
  runScoreContract({ name: `${verifier.name} grade verifier`, gold: grade("gold"), nearMiss: grade("nearMiss"), ungradable: grade("ungradable"), timeoutMs: 30_000 });
}
