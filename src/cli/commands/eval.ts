/** `rllm eval <benchmark>`: runs a benchmark against an endpoint (or the embedded model), durably, and prints honest statistics. */
import path from "node:path";
import { type Command, Option } from "commander";
import { z } from "zod";
import { InputError } from "../../core/errors/input-error.js";
import { rllmHome } from "../../core/rllm-home.js";
import { runEval } from "../../engine/run-eval.js";
import { checkRunDirectory, openRunDirectory, type RunPaths } from "../../engine/run-directory.js";
import { createOpenAiClient } from "../../llm/openai-client.js";
import { RetryBudget } from "../../llm/retry-policy.js";
import { benchmarkNames, loadBenchmark } from "../../../benchmarks/registry.js";
import { resolveCookbook } from "../resolve-cookbook.js";
import { openEndpoint, planEndpoint, type Endpoint } from "../resolve-endpoint.js";
import type { Cookbook } from "../../core/cookbook.js";
import type { Task } from "../../core/task.js";
import type { SamplingParams } from "../../core/llm-client.js";
import { assertInputFile } from "../check-paths.js";
import { assertEmbeddedModelCanRun } from "../check-embedded-model.js";
import { ProgressBar, type ProgressCounts } from "../progress-bar.js";
import { formatRerankMethod, formatSummary } from "../format-summary.js";
import { parseFlags } from "../parse-flags.js";
import { SelectionMethodSchema } from "../../tournament/selection-methods.js";

const EvalFlagsSchema = z.object({
  model: z.string().optional(),
  baseUrl: z.string().url().optional(),
  apiKeyEnv: z.string().default("OPENAI_API_KEY"),
  data: z.string().optional(),
  split: z.string().default("test"),
  cookbook: z.string().optional(),
  limit: z.coerce.number().int().positive().optional(),
  attempts: z.coerce.number().int().positive().default(1),
  concurrency: z.coerce.number().int().positive().default(16),
  temperature: z.coerce.number().min(0).max(2).optional(),
  topP: z.coerce.number().gt(0).max(1).optional(),
  maxTokens: z.coerce.number().int().positive().optional(),
  seed: z.coerce.number().int().nonnegative().default(0),
  timeout: z.coerce.number().positive().default(600),
  maxRetries: z.coerce.number().int().nonnegative().default(8),
  retryBudget: z.coerce.number().int().nonnegative().default(10_000),
  out: z.string().optional(),
  resume: z.boolean().default(false),
  failUnder: z.coerce.number().min(0).max(1).optional(),
  rerank: z
    .string()
    .transform((text, context) => {
      const parsed = z.array(SelectionMethodSchema).min(1).safeParse(text.split(",").map((part) => part.trim()));
      if (parsed.success) return parsed.data;
      context.addIssue({ code: "custom", message: `"${text}": expected a comma list of ${SelectionMethodSchema.options.join(", ")}` });
      return z.NEVER;
    })
    .optional(),
  budget: z.coerce.number().positive().default(2),
  judgeModel: z.string().optional(),
  beta: z.coerce.number().min(0).optional(),
});
export type EvalFlags = z.infer<typeof EvalFlagsSchema>;

/** Registers `rllm eval`. */
export function registerEvalCommand(program: Command): void {
  program
    .command("eval")
    .description(
      "Run a benchmark: every task × attempt through the cookbook's agent flow, graded, written to <out>/episodes.jsonl as it goes,\n" +
        "summarised in <out>/summary.json. Without --base-url the embedded tiny model answers (offline).",
    )
    .argument("<benchmark>", `benchmark name (${benchmarkNames.join(", ")})`)
    .option("--model <name>", "model name at the endpoint (required with --base-url)")
    .option("--base-url <url>", "OpenAI-compatible endpoint, e.g. http://localhost:8000/v1 (vLLM, SGLang, OpenAI...)")
    .option("--api-key-env <VAR>", "environment variable holding the API key", "OPENAI_API_KEY")
    .option("--data <file.jsonl>", "your own rows {id, question, ground_truth, ...} instead of the benchmark's data")
    .option("--split <name>", "dataset split to evaluate", "test")
    .option("--cookbook <name|path>", "agent flow + evaluator: a built-in name or a module path (default: the benchmark's)")
    .option("--limit <n>", "evaluate only the first n tasks")
    .option("-n, --attempts <n>", "attempts per task (for pass@k and maj@k)", "1")
    .option("--concurrency <n>", "episodes in flight at once", "16")
    .option("--temperature <t>", "sampling temperature (server default if unset)")
    .option("--top-p <p>", "nucleus sampling mass")
    .option("--max-tokens <n>", "completion token limit per model call")
    .option("--seed <n>", "run seed; each episode samples with a seed derived from it, the task id and the attempt", "0")
    .option("--timeout <seconds>", "time limit per episode; an episode over it is scored wrong", "600")
    .option("--max-retries <n>", "retries per model call on 429/408/409/5xx/timeouts/resets", "8")
    .option("--retry-budget <n>", "retries allowed across the whole run", "10000")
    .option("--out <dir>", "run directory (default runs/<benchmark>-<timestamp>)")
    .option("--resume", "finish the run in --out: only missing (task, attempt) pairs run; refuses if the config differs")
    .addOption(new Option("--fail-under <accuracy>", "exit 1 if accuracy (0..1) ends below this"))
    .option("--judge-model <name>", "LLM judge (same endpoint) for answers no deterministic grader can check, e.g. FinQA free-text gold answers")
    .option("--beta <x>", "weight of the cookbook's shaping bonus (FinQA table access; default 0.1, 0 reproduces rLLM)")
    .option("--rerank <methods>", `after each task's attempts, pick one with these selection methods (comma list: ${SelectionMethodSchema.options.join(", ")}); reports rerank@1`)
    .option("--budget <m>", "judge calls per task for --rerank, as a multiple of the attempts (V1's B = m·N)", "2")
    .action(async (benchmarkName: string, rawFlags: Record<string, unknown>, command: Command) => {
      const flags = parseFlags(EvalFlagsSchema, rawFlags, command);
      const code = await evalCommand(benchmarkName, flags);
      process.exitCode = code;
    });
}

/** Runs the eval described by the flags; returns the exit code (0 ok, 1 failed or under --fail-under). */
async function evalCommand(benchmarkName: string, flags: EvalFlags): Promise<number> {
  // Every usage check comes first: the embedded model's server, once started, keeps the process alive until closed.
  const benchmark = await loadBenchmark(benchmarkName);
  if (!benchmark) throw new InputError(`unknown benchmark "${benchmarkName}"; available: ${benchmarkNames.join(", ")}`);
  if (flags.resume && !flags.out) throw new InputError("--resume needs --out <run directory>");
  const baseCookbook = await resolveCookbook(flags.cookbook ?? benchmark.defaultCookbook);
  assertConfigurable(baseCookbook, flags);
  if (flags.data) assertInputFile("--data", flags.data);
  let tasks = await benchmark.loadTasks({ dataFile: flags.data, split: flags.split, home: rllmHome() });
  if (flags.limit !== undefined) tasks = tasks.slice(0, flags.limit);
  const plan = planEndpoint(flags);
  if (plan.isEmbedded) {
    if (flags.judgeModel !== undefined) throw new InputError(`--judge-model ${flags.judgeModel} needs --base-url (the judge runs on the same endpoint)`);
    await assertEmbeddedModelCanRun(benchmark.name, baseCookbook, tasks);
  }
  const sampling = { temperature: flags.temperature, topP: flags.topP, maxTokens: flags.maxTokens };
  const config = {
    benchmark: benchmark.name,
    ...(flags.judgeModel !== undefined ? { judgeModel: flags.judgeModel } : {}),
    ...(flags.beta !== undefined ? { beta: flags.beta } : {}),
    cookbook: baseCookbook.name,
    model: plan.model,
    baseUrl: plan.isEmbedded ? "embedded" : plan.baseUrl,
    data: flags.data ? path.resolve(flags.data) : null,
    split: flags.split,
    limit: flags.limit ?? null,
    attempts: flags.attempts,
    seed: flags.seed,
    sampling,
    timeoutSeconds: flags.timeout,
    ...(flags.rerank ? { rerank: { methods: flags.rerank, budget: flags.budget } } : {}),
  };
  const directory = flags.out ?? path.join("runs", `${benchmark.name}-${new Date().toISOString().replace(/[:.]/g, "-")}`);
  checkRunDirectory(directory, config, flags.resume);

  const endpoint = await openEndpoint(plan);
  try {
    if (endpoint.isEmbedded) console.error(`rllm: no --base-url given: using the embedded tiny model (offline, served at ${endpoint.baseUrl})`);
    const cookbook = configureCookbook(baseCookbook, flags, endpoint);
    const paths = openRunDirectory(directory, config, flags.resume);
    return await runWithProgress({ benchmarkName: benchmark.name, tasks, cookbook, endpoint, flags, sampling, paths });
  } finally {
    await endpoint.close();
  }
}

interface RunInputs {
  benchmarkName: string;
  tasks: Task[];
  cookbook: Cookbook;
  endpoint: Endpoint;
  flags: EvalFlags;
  sampling: SamplingParams;
  paths: RunPaths;
}

/** Runs the checked eval with a progress line and Ctrl-C handling, prints the summary, returns the exit code. */
async function runWithProgress({ benchmarkName, tasks, cookbook, endpoint, flags, sampling, paths }: RunInputs): Promise<number> {
  const counts: ProgressCounts = { done: 0, total: tasks.length * flags.attempts, skipped: 0, correct: 0, scored: 0, infraErrors: 0, modelErrors: 0, retries: 0 };
  const progress = new ProgressBar(benchmarkName);
  const client = createOpenAiClient({
    baseUrl: endpoint.baseUrl,
    model: endpoint.model,
    apiKey: endpoint.apiKey,
    retryPolicy: { maxRetries: flags.maxRetries, baseDelayMs: 500, maxDelayMs: 60_000 },
    retryBudget: new RetryBudget(flags.retryBudget),
    onRetry: () => {
      counts.retries += 1;
    },
  });

  const reranker = flags.rerank
    ? (await import("../../tournament/eval-reranker.js")).createEvalReranker({
        methods: flags.rerank,
        budget: flags.budget,
        client,
        sampling,
        judgeKind: cookbook.judgeKind ?? "math",
        seed: flags.seed,
        file: path.join(paths.directory, "tournaments.jsonl"),
      })
    : undefined;
  const controller = new AbortController();
  const onInterrupt = () => {
    if (controller.signal.aborted) process.exit(130);
    console.error("\nrllm: stopping (finished episodes are kept; Ctrl-C again to quit at once)");
    controller.abort(new Error("interrupted"));
  };
  process.on("SIGINT", onInterrupt);
  try {
    const result = await runEval({
      tasks,
      cookbook,
      client,
      sampling,
      seed: flags.seed,
      attempts: flags.attempts,
      concurrency: flags.concurrency,
      timeoutMs: flags.timeout * 1000,
      paths,
      signal: controller.signal,
      ...(reranker ? { onTaskComplete: reranker.onTaskComplete, extendSummary: reranker.extendSummary } : {}),
      onEpisodeEnd: ({ episode, done, total, skipped }) => {
        Object.assign(counts, { done, total, skipped });
        if (episode.errorClass === "infra_error") counts.infraErrors += 1;
        else {
          // Unscored episodes stay out of the running accuracy, as they stay out of summary.json's.
          if (episode.score.status === "scored") {
            counts.scored += 1;
            if (episode.score.isCorrect) counts.correct += 1;
          }
          if (episode.errorClass === "model_error") counts.modelErrors += 1;
        }
        progress.update(counts);
      },
    });
    progress.update(counts, true);
    progress.finish();
    console.log(`\n${benchmarkName} · ${cookbook.name} · ${endpoint.model}  →  ${paths.directory}`);
    console.log(formatSummary(result.summary));
    for (const [method, rerank] of Object.entries(result.summary.rerank ?? {})) console.error(`rerank ${formatRerankMethod(method, rerank, "tasks")}`);
    if (result.cancelled) {
      console.error(`rllm: interrupted; finish with: rllm eval ${benchmarkName} --out ${paths.directory} --resume (same flags)`);
      return 1;
    }
    if (result.summary.errors.infra > 0) {
      console.error(`rllm: ${result.summary.errors.infra} episodes could not be run (infra errors, not scored); --resume retries them`);
      return 1;
    }
    if (result.status === "incomplete") {
      console.error(`rllm: the run is incomplete:\n  ${result.unfinished.join("\n  ")}\nfinish with: rllm eval ${benchmarkName} --out ${paths.directory} --resume (same flags)`);
      return 1;
    }
    const failedMethods = Object.entries(result.summary.rerank ?? {}).filter(([, rerank]) => rerank.status === "failed");
    if (failedMethods.length > 0) {
      console.error(`rllm: rerank ${failedMethods.map(([method]) => method).join(", ")} failed: most judge replies could not be parsed, so no rerank@1 is reported`);
      return 1;
    }
    if (flags.failUnder !== undefined && result.summary.metrics.accuracy.mean < flags.failUnder) {
      console.error(`rllm: accuracy ${result.summary.metrics.accuracy.mean.toFixed(4)} is under --fail-under ${flags.failUnder}`);
      return 1;
    }
    return 0;
  } finally {
    process.off("SIGINT", onInterrupt);
    reranker?.close();
  }
}

/** --judge-model / --beta given to a cookbook that takes neither is a usage error, never ignored. */
function assertConfigurable(cookbook: Cookbook, flags: EvalFlags): void {
  if ((flags.judgeModel !== undefined || flags.beta !== undefined) && !cookbook.configure) {
    throw new InputError(`cookbook "${cookbook.name}" takes no --judge-model or --beta`);
  }
}

/** Applies --judge-model / --beta to a cookbook that takes them (checked by assertConfigurable). */
function configureCookbook(cookbook: Cookbook, flags: EvalFlags, endpoint: Endpoint): Cookbook {
  if (!cookbook.configure || (flags.judgeModel === undefined && flags.beta === undefined)) return cookbook;
  const judge = flags.judgeModel
    ? createOpenAiClient({ baseUrl: endpoint.baseUrl, model: flags.judgeModel, apiKey: endpoint.apiKey })
    : undefined;
  return cookbook.configure({ judge, beta: flags.beta });
}
