/**
 * `rllm eval` beside inspect-ai and lm-eval: 500 generated questions, one local OpenAI-compatible server
 * (math-answer-server.ts, 0 ms and 50 ms), the same concurrency; wall time, requests/s and peak RSS, whole process.
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import type { PeerComparison, PeerRow } from "./peer-comparison.js";
import { fixed, log, median, type PeersEnvironment, type ProcessFigures, writeJsonl } from "./peers-environment.js";

interface Server {
  baseUrl: string;
  served(): Promise<number>;
  stop(): void;
}

interface EvalSide {
  seconds: number;
  requests: number;
  peakRssMb: number;
  status: number;
}

type Harness = "inspect-ai" | "lm-eval" | "rllm eval";

const concurrency = 32;
const questionCount = 500;
const harnesses: Harness[] = ["inspect-ai", "lm-eval", "rllm eval"];
const latencies = [0, 50];

/** The eval-throughput comparison against inspect-ai and lm-eval. */
export function evalHarnessComparison(environment: PeersEnvironment): PeerComparison {
  const { root, here, bin, scratch, versions } = environment;
  const questionsFile = path.join(scratch, "math-500.jsonl");
  const lmEvalTasks = path.join(scratch, "lm-eval-tasks");
  const servers = new Map<number, Server>();
  const evalRuns = new Map<string, EvalSide[]>();

  const runHarness = (harness: Harness, server: Server, round: number): ProcessFigures => {
    const out = path.join(scratch, `${harness.replace(" ", "-")}-${round}-${Date.now()}`);
    if (harness === "inspect-ai") {
      return environment.measure(
        [path.join(bin, "inspect"), "eval", `${path.join(here, "inspect-math-task.py")}@bench_math`, "--model", "openai-api/bench/bench", "--max-connections", String(concurrency), "--max-samples", String(concurrency), "--display", "none", "--no-log-realtime", "--log-dir", out, "--no-fail-on-error"],
        { BENCH_BASE_URL: server.baseUrl, BENCH_API_KEY: "bench", PEERS_MATH_ROWS: questionsFile, INSPECT_DISPLAY: "none" },
      );
    }
    if (harness === "lm-eval") {
      return environment.measure(
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
    return environment.measure([...environment.rllm, "eval", "math", "--data", questionsFile, "--base-url", server.baseUrl, "--model", "bench", "--concurrency", String(concurrency), "--out", out], {
      OPENAI_API_KEY: "bench",
    });
  };

  const evalSide = async (harness: Harness, server: Server, round: number): Promise<EvalSide> => {
    await server.served();
    const run = runHarness(harness, server, round);
    return { seconds: run.seconds, requests: await server.served(), peakRssMb: run.peakRssMb, status: run.status };
  };

  return {
    name: "eval",
    async start() {
      writeEvalInputs(questionsFile, lmEvalTasks);
      for (const latency of latencies) servers.set(latency, await startServer(root, here, latency));
      // One unmeasured warm-up of each harness: lm-eval converts the JSON rows into its datasets cache, the build is read.
      log("warm-up (unmeasured)");
      for (const harness of harnesses) await evalSide(harness, servers.get(0)!, -1);
    },
    async round(round, rounds) {
      for (const latency of latencies) {
        // Alternate the order, so that a change in the machine's load hits every harness alike.
        const order = round % 2 === 1 ? [...harnesses].reverse() : harnesses;
        for (const harness of order) {
          log(`round ${round + 1}/${rounds}: ${harness}, ${latency} ms`);
          const key = `${harness}@${latency}`;
          evalRuns.set(key, [...(evalRuns.get(key) ?? []), await evalSide(harness, servers.get(latency)!, round)]);
        }
      }
    },
    async finish() {
      for (const server of servers.values()) server.stop();
    },
    rows() {
      const rows: PeerRow[] = [];
      for (const latency of latencies) {
        const figures = (harness: Harness) => {
          const runs = evalRuns.get(`${harness}@${latency}`)!;
          return {
            seconds: median(runs.map((run) => run.seconds)),
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
      return rows;
    },
  };
}

/** 500 generated "What is A + B?" questions (seeded, the same file for every harness) and lm-eval's task for them. */
function writeEvalInputs(questionsFile: string, lmEvalTasks: string): void {
  writeJsonl(
    questionsFile,
    Array.from({ length: questionCount }, (_, index) => {
      const a = (index * 7919) % 1000;
      const b = (index * 104_729) % 997;
      return { id: `q${index}`, question: `What is ${a} + ${b}?`, ground_truth: String(a + b) };
    }),
  );
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
}

async function startServer(root: string, here: string, latencyMs: number): Promise<Server> {
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
