/** Code verifier speed: programs/s and tests/s on the bundled DeepCoder sample (all cores), and HumanEval canonical solutions side by side with the reference harness. */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import pLimit from "p-limit";
import { CodeGrader } from "../../verifiers/code/code-grader.js";
import { normalizeTests, type TestCase } from "../../verifiers/code/normalize-tests.js";

interface Problem {
  id: string;
  program: string;
  tests: TestCase[];
  fnName?: string;
}

function readJsonl(url: URL): Record<string, unknown>[] {
  return readFileSync(url, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function gradeAll(grader: CodeGrader, problems: Problem[]): Promise<{ seconds: number; passed: number; tests: number }> {
  const limit = pLimit(grader.concurrency);
  const started = performance.now();
  const verdicts = await Promise.all(problems.map((problem) => limit(() => grader.grade(problem))));
  const seconds = (performance.now() - started) / 1000;
  const tests = verdicts.reduce((sum, verdict) => sum + verdict.tests.filter((test) => test.verdict !== "not_run").length, 0);
  return { seconds, passed: verdicts.filter((verdict) => verdict.passed).length, tests };
}

/** A functional test as a check statement for the reference harness (it only knows programs that raise on failure). */
function asCheck(test: TestCase, fnName: string): string {
  if (test.kind === "assert") return test.code;
  if (test.kind !== "functional") throw new Error("the reference harness runs function-call and assert tests only");
  const argumentsList = test.input.split("\n").filter((line) => line.trim() !== "");
  const call = `${fnName}(*[__import__("json").loads(line) for line in ${JSON.stringify(argumentsList)}])`;
  return `__value = ${call}\n__value = list(__value) if isinstance(__value, tuple) else __value\nassert __value == __import__("json").loads(${JSON.stringify(test.output)})\n`;
}

const cores = os.availableParallelism();
const grader = await CodeGrader.create();
console.log(`sandbox: ${grader.host.kind}, python ${grader.host.python.version}, ${grader.concurrency} sandboxes on ${cores} cores`);

const sample: Problem[] = readJsonl(new URL("../../benchmarks/deepcoder/sample.jsonl", import.meta.url)).map((row) => {
  const { tests, fnName } = normalizeTests(row.tests, row.fn_name as string | null);
  return { id: String(row.id), program: String(row.reference_solution), tests, fnName };
});
const sampleRun = await gradeAll(grader, sample);
console.log(
  `bundled sample: ${sample.length} programs, ${sampleRun.tests} tests in ${sampleRun.seconds.toFixed(2)} s → ` +
    `${(sample.length / sampleRun.seconds).toFixed(1)} programs/s, ${(sampleRun.tests / sampleRun.seconds).toFixed(1)} tests/s (${sampleRun.passed}/${sample.length} passed)`,
);

// HumanEval canonical solutions of code_dev (function-call and assert forms), run by us and by the reference harness.
const humanEval: Problem[] = readJsonl(new URL("../fixtures/code-dev.jsonl", import.meta.url))
  .filter((row) => row.mutation === null && String(row.source).startsWith("openai/human-eval") && row.kind === "functional")
  .map((row) => {
    const { tests, fnName } = normalizeTests(row.tests, row.fn_name as string | null);
    return { id: String(row.id), program: String(row.program), tests, fnName };
  });
const ours = await gradeAll(grader, humanEval);
console.log(
  `HumanEval canonical (${humanEval.length} programs, sandboxed, ${grader.concurrency} at once): ${ours.seconds.toFixed(2)} s wall ` +
    `(${ours.passed}/${humanEval.length} passed) → ${((ours.seconds * 164) / humanEval.length).toFixed(1)} s scaled to all 164 ` +
    `(reference figure: 18 s for openai/human-eval on 2 idle cores; target ≤ 6 s)`,
);
// The floor of any grader that starts an interpreter per program, measured now on this machine.
const floorStarted = performance.now();
for (let run = 0; run < 20; run += 1) spawnSync(grader.host.python.executable, ["-I", "-S", "-c", "pass"]);
console.log(`  plain interpreter start here right now: ${((performance.now() - floorStarted) / 20).toFixed(0)} ms wall each (no sandbox)`);

const referenceInput = humanEval.map((problem) => JSON.stringify({ program: problem.program, checks: problem.tests.map((test) => asCheck(test, problem.fnName ?? "")).join("\n") })).join("\n");
const reference = spawnSync(grader.host.python.executable, [fileURLToPath(new URL("./human-eval-reference.py", import.meta.url))], { input: referenceInput, encoding: "utf8" });
if (reference.status === 0) {
  const figures = JSON.parse(reference.stdout) as { seconds: number; passed: number; total: number };
  console.log(
    `reference rebuild (human-eval style: fork + exec in-process, unsandboxed, 2 workers), same programs, same moment: ${figures.seconds.toFixed(2)} s wall ` +
      `(${figures.passed}/${figures.total} passed); reference/ours = ${(figures.seconds / ours.seconds).toFixed(2)}`,
  );
} else {
  console.log(`reference harness failed: ${reference.stderr.trim().slice(-300)}`);
}
