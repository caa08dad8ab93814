/** `rllm eval <benchmark>`'s action: maps the flags to eval options, plans and runs the eval with a progress line and Ctrl-C, prints honest statistics. */
import { InputError } from "../../core/errors/input-error.js";
import { executeEvalPlan } from "../../evaluation/execute-eval-plan.js";
import { planEval } from "../../evaluation/plan-eval.js";
import { openRunServices } from "../../evaluation/run-services.js";
import { interruptOnCtrlC } from "../interrupt-on-ctrl-c.js";
import { ProgressBar } from "../progress-bar.js";
import { reportEvalOutcome } from "../report-eval-outcome.js";
import { resumeCommand } from "../resume-command.js";
import type { EvalFlags } from "./eval-flags.js";
import { evalOptionsFromFlags } from "./eval-options-from-flags.js";

/** Runs `rllm eval <benchmark>` (or an eval set with --config) and sets the exit code (0 ok, 1 failed or under --fail-under). */
export async function evalAction(flags: EvalFlags, [benchmarkName]: [string?]): Promise<void> {
  if (flags.list) {
    if (benchmarkName) throw new InputError(`--list lists every benchmark: drop "${benchmarkName}"`);
    // The same catalogue as `rllm dataset list`, without the user's own datasets.
    const [{ benchmarks }, { formatBenchmarkCatalog }, { readPullManifest }, { rllmHome }] = await Promise.all([
      import("../../../benchmarks/registry.js"),
      import("../format-benchmark-catalog.js"),
      import("../../datasets/dataset-cache.js"),
      import("../../core/rllm-home.js"),
    ]);
    const home = rllmHome();
    for (const line of formatBenchmarkCatalog(await benchmarks.loadAll(), (name) => readPullManifest(home, name))) console.log(line);
    return;
  }
  if (flags.config) {
    if (benchmarkName) throw new InputError(`--config runs the benchmarks its file names: drop "${benchmarkName}"`);
    process.exitCode = await (await import("./eval-set.js")).runEvalSet(flags, flags.config);
    return;
  }
  if (!benchmarkName) throw new InputError("rllm eval needs a <benchmark> (or --config evalset.yaml)");
  const options = evalOptionsFromFlags(flags, benchmarkName);
  // Every usage check comes first: the embedded model's server, once started, keeps the process alive until closed.
  const plan = await planEval(options, { warn: (message) => console.error(`rllm: warning: ${message}`) });
  const services = await openRunServices({ ...plan.options, sandbox: plan.sandbox });
  try {
    if (services.cacheRecovery) console.error(`rllm: ${services.cacheRecovery}`);
    let progress: ProgressBar | undefined;
    const interrupt = interruptOnCtrlC("rllm: stopping (finished episodes are kept; Ctrl-C again to quit at once)");
    try {
      const outcome = await executeEvalPlan(plan, services, {
        signal: interrupt.signal,
        onEpisodesStart: () => {
          progress = new ProgressBar(plan.benchmark.name);
        },
        onProgress: (counts) => progress?.update(counts),
        notify: (message) => console.error(`rllm: ${message}`),
      });
      // The judge calls of the last tasks land after their episodes: the final figure is the summary's.
      if (outcome.price && outcome.result.summary.cost) outcome.progress.spent = outcome.result.summary.cost.total;
      progress?.update(outcome.progress, true);
      progress?.finish();
      process.exitCode = reportEvalOutcome(outcome, {
        resumeHint: `\nfinish with: ${resumeCommand(process.argv.slice(2), outcome.directory)}`,
        failUnder: flags.failUnder,
      });
    } finally {
      interrupt.release();
    }
  } finally {
    await services.close();
  }
}
