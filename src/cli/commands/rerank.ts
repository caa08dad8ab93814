/** `rllm rerank`: picks the best of each row's candidates with a judge tournament; writes the pick and scores per row. */
import { writeFileSync } from "node:fs";
import type { Command } from "commander";
import { z } from "zod";
import { createOpenAiClient } from "../../llm/openai-client.js";
import { createLlmJudge } from "../../tournament/llm-judge.js";
import { rerankCandidates } from "../../tournament/rerank-candidates.js";
import { candidateText, readRerankRows } from "../../tournament/rerank-input.js";
import { rerankMetrics, rerankOutcome, type RerankOutcome } from "../../tournament/rerank-metrics.js";
import { SelectionMethodSchema, SlotPolicySchema, defaultSelectionConfig } from "../../tournament/selection-methods.js";
import { formatRerankMethod } from "../format-summary.js";
import { parseFlags } from "../parse-flags.js";
import { assertInputFile, assertWritableOutput } from "../check-paths.js";
import { openEndpoint, planEndpoint } from "../resolve-endpoint.js";

const RerankFlagsSchema = z.object({
  input: z.string({ message: "required: the candidates JSONL file" }),
  output: z.string().optional(),
  records: z.string().optional(),
  method: z.string().transform((text, context) => {
    const parsed = z.array(SelectionMethodSchema).min(1).safeParse(text.split(",").map((part) => part.trim()));
    if (parsed.success) return parsed.data;
    context.addIssue({ code: "custom", message: `"${text}": expected a comma list of ${SelectionMethodSchema.options.join(", ")}` });
    return z.NEVER;
  }),
  budget: z.coerce.number().positive(),
  judgeKind: z.enum(["math", "code"]),
  slots: SlotPolicySchema,
  knockoutK: z.coerce.number().int().positive(),
  seed: z.coerce.number().int(),
  concurrency: z.coerce.number().int().positive(),
  temperature: z.coerce.number().min(0).max(2).optional(),
  maxTokens: z.coerce.number().int().positive().optional(),
  model: z.string().optional(),
  baseUrl: z.string().url().optional(),
  apiKeyEnv: z.string(),
});

/** Registers `rllm rerank`. */
export function registerRerankCommand(program: Command): void {
  program
    .command("rerank")
    .description(
      "Rerank candidates produced elsewhere: rows {id, problem, candidates: [text | {text, isCorrect?, answer?}]} → one line per row\n" +
        "and method {id, method, chosenIndex, scores, judgeCalls[, isCorrect]}. With isCorrect labels, prints pass@1, pass@N and rerank@1.",
    )
    .requiredOption("--input <file.jsonl>", "the candidates file")
    .option("--output <file.jsonl>", "write the rows here instead of stdout")
    .option("--records <file.jsonl>", "also write each row's full tournament record (every judge verdict)")
    .option("--method <list>", `selection method(s), comma list of ${SelectionMethodSchema.options.join(", ")}`, "v1")
    .option("--budget <m>", "judge calls as a multiple of the candidate count (V1's B = m·N)", "2")
    .option("--judge-kind <kind>", "judge prompt: math (final answer only) or code (correct and robust)", "math")
    .option("--slots <policy>", "slot A: scheduled (V1's order), random, or both (two calls per pair)", "scheduled")
    .option("--knockout-k <k>", "comparisons per knockout match", "1")
    .option("--seed <n>", "seed of the pairings (a row's seed is this plus its line index) and of the judge's sampling", "0")
    .option("--concurrency <n>", "judge calls in flight at once", "8")
    .option("--temperature <t>", "judge sampling temperature")
    .option("--max-tokens <n>", "judge completion token limit")
    .option("--model <name>", "judge model name at the endpoint (required with --base-url)")
    .option("--base-url <url>", "OpenAI-compatible endpoint of the judge")
    .option("--api-key-env <VAR>", "environment variable holding the API key", "OPENAI_API_KEY")
    .action(async (rawFlags: Record<string, unknown>) => {
      const flags = parseFlags(RerankFlagsSchema, rawFlags);
      assertInputFile("--input", flags.input);
      if (flags.output) assertWritableOutput("--output", flags.output);
      if (flags.records) assertWritableOutput("--records", flags.records);
      const rows = readRerankRows(flags.input);
      // Checked before the judge's server starts: it keeps the process alive until closed.
      const endpoint = await openEndpoint(planEndpoint(flags));
      if (endpoint.isEmbedded) console.error(`rllm: no --base-url given: judging with the embedded tiny model (${endpoint.baseUrl})`);
      try {
        const client = createOpenAiClient({ baseUrl: endpoint.baseUrl, model: endpoint.model, apiKey: endpoint.apiKey });
        const judge = createLlmJudge({
          client,
          kind: flags.judgeKind,
          sampling: { temperature: flags.temperature, maxTokens: flags.maxTokens },
          seed: flags.seed,
          concurrency: flags.concurrency,
        });
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
              config: { ...defaultSelectionConfig(Math.round(flags.budget * row.candidates.length)), slots: flags.slots, knockoutK: flags.knockoutK },
              seed: flags.seed + rowIndex,
              answers: row.candidates.map((candidate) => (typeof candidate === "string" ? undefined : candidate.answer)),
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
        await endpoint.close();
      }
    });
}
