/** `rllm rerank`'s action: picks the best of each row's candidates with a judge tournament; writes the pick and scores per row. */
import { writeFileSync } from "node:fs";
import { createOpenAiClient } from "../../llm/openai-client.js";
import type { Judge } from "../../tournament/judge.js";
import { createLlmJudge } from "../../tournament/llm-judge.js";
import { rerankCandidates } from "../../tournament/rerank-candidates.js";
import { assertEndpointAnswers } from "../../evaluation/assert-endpoint-answers.js";
import { majorityAnswers } from "../../tournament/majority-answers.js";
import { candidateText, readRerankRows } from "../../tournament/rerank-input.js";
import { rerankMetrics, rerankOutcome, type RerankOutcome } from "../../tournament/rerank-metrics.js";
import { defaultSelectionConfig } from "../../tournament/selection-methods.js";
import { formatRerankMethod } from "../format-summary.js";
import { assertInputFile, assertWritableOutput } from "../../core/check-paths.js";
import { openEndpoint, planEndpoint } from "../../evaluation/resolve-endpoint.js";
import type { RerankFlags } from "./rerank-flags.js";

/** Judges each row's candidates with every method and writes one line per row and method. */
export async function rerankAction(flags: RerankFlags): Promise<void> {
  assertInputFile("--input", flags.input);
  if (flags.output) assertWritableOutput("--output", flags.output);
  if (flags.records) assertWritableOutput("--records", flags.records);
  const rows = readRerankRows(flags.input);
  // Checked before the judge's server starts: it keeps the process alive until closed.
  // Majority vote needs an answer per candidate (extracted when absent); adaptive-duel groups candidates by their
  // `answer` labels when given, so equal answers are never judged against each other.
  const answers = flags.method.includes("majority")
    ? majorityAnswers(flags.input, rows, flags.judgeKind)
    : rows.map((row) => row.candidates.map((candidate) => (typeof candidate === "string" ? undefined : candidate.answer)));
  // Majority vote never calls the judge: with no other method, no endpoint is opened (nor the embedded model started).
  const needsJudge = flags.method.some((method) => method !== "majority");
  const plan = needsJudge ? planEndpoint(flags) : undefined;
  // One request before any judging: a dead endpoint fails here, naming the URL, instead of after the retries.
  if (plan && !plan.isEmbedded) await assertEndpointAnswers(plan);
  const endpoint = plan ? await openEndpoint(plan) : undefined;
  if (plan?.isEmbedded && endpoint) {
    const judgeModel = "modelFile" in plan ? `${endpoint.model} on llama.cpp` : "the embedded tiny model";
    console.error(`rllm: no --base-url given: judging with ${judgeModel} (${endpoint.baseUrl})`);
  }
  try {
    const judge = endpoint
      ? createLlmJudge({
          client: createOpenAiClient({ baseUrl: endpoint.baseUrl, model: endpoint.model, apiKey: endpoint.apiKey }),
          kind: flags.judgeKind,
          sampling: { temperature: flags.temperature, maxTokens: flags.maxTokens },
          seed: flags.seed,
          concurrency: flags.concurrency,
        })
      : noJudge;
    const lines: string[] = [];
    const records: string[] = [];
    const outcomes: RerankOutcome[] = [];
    let labelled = 0;
    let passAt1 = 0;
    let passAtN = 0;
    for (const [rowIndex, row] of rows.entries()) {
      const labels = row.candidates.map((candidate) => (typeof candidate === "string" ? undefined : candidate.isCorrect));
      const isLabelled = labels.every((label) => label !== undefined);
      if (isLabelled) {
        labelled += 1;
        passAt1 += labels.filter(Boolean).length / labels.length;
        passAtN += labels.some(Boolean) ? 1 : 0;
      }
      for (const method of flags.method) {
        const { record, usage } = await rerankCandidates({
          problem: row.problem,
          candidates: row.candidates.map(candidateText),
          judge,
          method,
          config: { ...defaultSelectionConfig(row.maxCalls ?? flags.maxCalls ?? Math.round(flags.budget * row.candidates.length)), slots: flags.slots, knockoutK: flags.knockoutK },
          seed: flags.seed + rowIndex,
          answers: answers?.[rowIndex],
        });
        const isCorrect = isLabelled ? labels[record.chosenIndex] : undefined;
        lines.push(JSON.stringify({ id: row.id, method, chosenIndex: record.chosenIndex, scores: record.scores, judgeCalls: record.judgeCalls, isCorrect }));
        records.push(JSON.stringify({ id: row.id, ...record }));
        outcomes.push(rerankOutcome(method, record, isCorrect, usage.promptTokens + usage.completionTokens));
      }
    }
    if (flags.output) writeFileSync(flags.output, lines.map((line) => `${line}\n`).join(""));
    else console.log(lines.join("\n"));
    if (flags.records) writeFileSync(flags.records, records.map((line) => `${line}\n`).join(""));
    if (labelled > 0) {
      console.error(`rerank: ${labelled} labelled rows · pass@1 ${(passAt1 / labelled).toFixed(4)} · pass@N ${(passAtN / labelled).toFixed(4)}`);
    }
    const metrics = rerankMetrics(outcomes, { methods: flags.method, tasksExpected: rows.length });
    for (const [method, result] of Object.entries(metrics)) console.error(`  ${formatRerankMethod(method, result, "rows")}`);
    const failed = Object.entries(metrics).filter(([, result]) => result.status === "failed").map(([method]) => method);
    if (failed.length > 0) {
      console.error(`rllm: ${failed.join(", ")}: most judge replies could not be parsed, so the picks are tie-breaks, not judgements`);
      process.exitCode = 1;
    }
  } finally {
    await endpoint?.close();
  }
}

// The judge of a majority-only run, which never calls it.
const noJudge: Judge = {
  compare: () => Promise.reject(new Error("majority vote called the judge")),
  score: () => Promise.reject(new Error("majority vote called the judge")),
};
