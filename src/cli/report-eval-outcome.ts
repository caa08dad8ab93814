/** Prints how an eval ended (its summary, rerank@1, why it failed) and gives `rllm eval`'s exit code for it. */
import type { EvalOutcome } from "../evaluation/execute-eval-plan.js";
import { infraErrorWarningRate } from "../metrics/infra-error-rate.js";
import { formatRerankMethod, formatSummary, summaryInfraRate } from "./format-summary.js";

/** What the report names besides the outcome. */
export interface EvalReportContext {
  /** An eval set's cell: each message names it, and the set prints how to resume. */
  cellLabel?: string;
  /** `\nfinish with: …` for a single eval, empty for a cell. */
  resumeHint: string;
  /** --fail-under: exit 1 when the accuracy ends below it. */
  failUnder?: number;
}

/** Prints the outcome; returns 0, or 1 when the run stopped early, was interrupted, failed, is incomplete or under --fail-under. */
export function reportEvalOutcome(outcome: EvalOutcome, context: EvalReportContext): number {
  const { result, endpoint } = outcome;
  const { resumeHint } = context;
  const say = (message: string) => console.error(`rllm: ${context.cellLabel !== undefined ? `${context.cellLabel}: ` : ""}${message}`);
  console.log(`\n${outcome.benchmarkName} · ${outcome.cookbookName} · ${endpoint.model}  →  ${outcome.directory}`);
  console.log(formatSummary(result.summary));
  for (const [method, rerank] of Object.entries(result.summary.rerank ?? {})) console.error(`rerank ${formatRerankMethod(method, rerank, "tasks")}`);
  if (outcome.earlyStop) {
    say(
      `stopped early: the last ${outcome.earlyStop.window} episodes all failed at ${endpoint.baseUrl} (model ${endpoint.model}): ${outcome.earlyStop.cause}${resumeHint.replace("\n", "; once it answers, ")}`,
    );
    return 1;
  }
  if (result.cancelled) {
    say(`interrupted${resumeHint.replace("\n", "; ")}`);
    return 1;
  }
  const infraRate = summaryInfraRate(result.summary);
  if (infraRate > infraErrorWarningRate) {
    say(
      `warning: ${(100 * infraRate).toFixed(1)}% of the episodes are infrastructure errors (${outcome.cookbookName}'s flow and verifier), above ` +
        `${100 * infraErrorWarningRate}%: the accuracy leaves them out, so it may not be the model's`,
    );
  }
  if (result.summary.errors.infra > 0) {
    const common = outcome.commonInfraCause;
    const cause = common ? `; most common cause (${common.count}×): ${common.cause}` : "";
    say(`${result.summary.errors.infra} episodes could not be run (infra errors, not scored${cause}); --resume retries them`);
    return 1;
  }
  if (result.status === "incomplete") {
    say(`the run is incomplete:\n  ${result.unfinished.join("\n  ")}${resumeHint}`);
    return 1;
  }
  const failedMethods = Object.entries(result.summary.rerank ?? {}).filter(([, rerank]) => rerank.status === "failed");
  if (failedMethods.length > 0) {
    say(`rerank ${failedMethods.map(([method]) => method).join(", ")} failed: most judge replies could not be parsed, so no rerank@1 is reported`);
    return 1;
  }
  if (context.failUnder !== undefined && result.summary.metrics.accuracy.mean < context.failUnder) {
    say(`accuracy ${result.summary.metrics.accuracy.mean.toFixed(4)} is under --fail-under ${context.failUnder}`);
    return 1;
  }
  return 0;
}
