/** The `finqa` cookbook: the table-querying ReAct agent and its evaluator (deterministic grading + table-access bonus). */
import { z } from "zod";
import { episodeAnswer, type Cookbook } from "rllm-ts/core";
import { companyTablesPool } from "rllm-ts/benchmarks/finqa";
import { finqaComparableAnswer } from "rllm-ts/verifiers/finqa";
import { createFinqaEvaluator, type FinqaEvaluatorOptions } from "./finqa-evaluator.js";
import { createFinqaFlow, finqaMaxTurns } from "./finqa-flow.js";

export interface FinqaCookbookOptions extends FinqaEvaluatorOptions {
  maxTurns?: number;
}

/** `rllm eval finqa --set beta=0.5 --set judgeModel=gpt-4o-mini`: the table-access β, and the judge for free-text gold answers. */
const FinqaOptionsSchema = z
  .object({
    // Weight of the table-access bonus (default 0.1; 0 reproduces rLLM's code, which only logs it).
    beta: z.number().min(0).optional(),
    // An LLM judge, on the run's endpoint, for gold answers that are free text; without one they stay unscored.
    judgeModel: z.string().min(1).optional(),
  })
  .strict();

/** A finqa cookbook with its own β, judge client and turn limit. */
export function createFinqaCookbook(options: FinqaCookbookOptions = {}): Cookbook {
  return {
    name: "finqa",
    description: `ReAct agent over a company's tables (get_table_names, get_table_info, sql_query, calculator), up to ${options.maxTurns ?? finqaMaxTurns} turns; reward = correctness + β·tableAccess.`,
    flow: createFinqaFlow(options.maxTurns),
    evaluate: createFinqaEvaluator(options),
    extractAnswer: (_task, episode) => finqaComparableAnswer(episodeAnswer(episode)),
    // Its tools query the company tables in the run's query processes, started as the run starts.
    pools: [companyTablesPool],
    optionsSchema: FinqaOptionsSchema,
    configure(given: z.infer<typeof FinqaOptionsSchema>, context) {
      return createFinqaCookbook({
        ...options,
        ...(given.judgeModel !== undefined ? { judge: context.createClient(given.judgeModel) } : {}),
        ...(given.beta !== undefined ? { beta: given.beta } : {}),
      });
    },
  };
}

/** The default finqa cookbook: β = 0.1, no judge, 20 turns. */
export const finqaCookbook = createFinqaCookbook();

export { createFinqaFlow, finqaMaxTurns, type FinqaArtifacts } from "./finqa-flow.js";
export { createFinqaEvaluator, type FinqaEvaluatorOptions } from "./finqa-evaluator.js";
export { finqaToolDefinitions, runFinqaTool } from "./finqa-tools.js";
