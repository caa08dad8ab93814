/** The `finqa` cookbook: the table-querying ReAct agent and its evaluator (deterministic grading + table-access bonus). */
import type { Cookbook } from "../../src/core/cookbook.js";
import { episodeAnswer } from "../../src/core/episode-answer.js";
import { finqaComparableAnswer } from "../../verifiers/finqa/comparable-answer.js";
import { createFinqaEvaluator, type FinqaEvaluatorOptions } from "./finqa-evaluator.js";
import { createFinqaFlow, finqaMaxTurns } from "./finqa-flow.js";

export interface FinqaCookbookOptions extends FinqaEvaluatorOptions {
  maxTurns?: number;
}

/** A finqa cookbook with its own β, judge client and turn limit. */
export function createFinqaCookbook(options: FinqaCookbookOptions = {}): Cookbook {
  return {
    name: "finqa",
    description: `ReAct agent over a company's tables (get_table_names, get_table_info, sql_query, calculator), up to ${options.maxTurns ?? finqaMaxTurns} turns; reward = correctness + β·tableAccess.`,
    flow: createFinqaFlow(options.maxTurns),
    evaluate: createFinqaEvaluator(options),
    extractAnswer: (_task, episode) => finqaComparableAnswer(episodeAnswer(episode)),
    configure: (flags) => createFinqaCookbook({ ...options, ...(flags.judge ? { judge: flags.judge } : {}), ...(flags.beta !== undefined ? { beta: flags.beta } : {}) }),
  };
}

/** The default finqa cookbook: β = 0.1, no judge, 20 turns. */
export const finqaCookbook = createFinqaCookbook();

export { createFinqaFlow, finqaMaxTurns, type FinqaArtifacts } from "./finqa-flow.js";
export { createFinqaEvaluator, type FinqaEvaluatorOptions } from "./finqa-evaluator.js";
export { finqaToolDefinitions, runFinqaTool } from "./finqa-tools.js";
