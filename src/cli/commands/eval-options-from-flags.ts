/** `rllm eval`'s flags mapped, once, to the evaluation layer's typed options: one eval's, or an eval set's shared ones. */
import { parseSetFlags } from "../../core/parse-set-flags.js";
import type { EvalOptionsInput } from "../../evaluation/eval-options.js";
import type { EvalSetOptions } from "../../evaluation/evaluate-set.js";
import { sandboxSettingFromFlags } from "../shared-flags.js";
import type { EvalFlags } from "./eval-flags.js";

/** The options of `rllm eval <benchmark>`. */
export function evalOptionsFromFlags(flags: EvalFlags, benchmark: string): EvalOptionsInput {
  return {
    benchmark,
    backend: flags.backend,
    tokenizer: flags.tokenizer,
    endpoint: flags.endpoint,
    baseUrl: flags.baseUrl,
    model: flags.model,
    apiKeyEnv: flags.apiKeyEnv,
    modelFile: flags.modelFile,
    threads: flags.threads,
    data: flags.data,
    split: flags.split,
    cookbook: flags.cookbook,
    cookbookOptions: parseSetFlags([...flags.set, ...agentEntries(flags)]),
    limit: flags.limit,
    attempts: flags.attempts,
    concurrency: flags.concurrency,
    sampling: { temperature: flags.temperature, topP: flags.topP, maxTokens: flags.maxTokens },
    seed: flags.seed,
    timeoutSeconds: flags.timeout,
    maxRetries: flags.maxRetries,
    retryBudget: flags.retryBudget,
    ...(flags.rerank ? { rerank: { methods: flags.rerank, budget: flags.budget } } : {}),
    out: flags.out,
    resume: flags.resume,
    cache: flags.cache,
    cacheTtl: flags.cacheTtl,
    rpm: flags.rpm,
    tpm: flags.tpm,
    prices: flags.prices,
    maxCost: flags.maxCost,
    sandbox: sandboxSettingFromFlags(flags),
  };
}

/** What every cell of `rllm eval --config` shares from the flags; the file gives the rest (its `set` replaces --set). */
export function evalSetOptionsFromFlags(flags: EvalFlags, file: string): EvalSetOptions {
  return {
    file,
    out: flags.out,
    resume: flags.resume,
    backend: flags.backend,
    tokenizer: flags.tokenizer,
    maxRetries: flags.maxRetries,
    retryBudget: flags.retryBudget,
    cache: flags.cache,
    cacheTtl: flags.cacheTtl,
    rpm: flags.rpm,
    tpm: flags.tpm,
    prices: flags.prices,
    maxCost: flags.maxCost,
    sandbox: sandboxSettingFromFlags(flags),
    cookbookOptions: parseSetFlags(agentEntries(flags)),
  };
}

/** --agent and --allow-network are the terminal cookbook's options under their own flags. */
function agentEntries(flags: EvalFlags): string[] {
  return [...(flags.agent !== undefined ? [`agent=${flags.agent}`] : []), ...(flags.allowNetwork ? ["allowNetwork=true"] : [])];
}
