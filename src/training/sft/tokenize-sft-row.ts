/**
 * SFT rows → token sequences with a loss mask (1 on the assistant's tokens, 0 on prompts and template glue), by one of
 * three methods: the sampler's own ids, the model's chat template on the last turn, or every turn merged.
 */
import { z } from "zod";
import { InputError } from "../../core/errors/input-error.js";
import type { SampledCall, SftMessage, SftRow } from "../../datasets/sft-row.js";

/**
 * `sampled`: the token ids the sampler saw and produced (no retokenising); `hf_template`: the prompt rendered with the
 * model's chat template, the last assistant turn tokenized as its completion; `cumulative`: every assistant turn
 * rendered that way and merged into one sequence where each prompt extends the previous turn.
 */
export const TokenizeMethodSchema = z.enum(["sampled", "hf_template", "cumulative"]);
export type TokenizeMethod = z.infer<typeof TokenizeMethodSchema>;

/** A model's chat template and tokenizer, as SFT needs them. */
export interface ChatTokenizer {
  /** Token ids of `messages` followed by the assistant's turn opener (the generation prompt). */
  promptTokenIds(messages: readonly SftMessage[]): number[];
  /** Token ids of the assistant's `reply` to `prompt` as the template renders that turn, through its end-of-turn token. */
  completionTokenIds(prompt: readonly SftMessage[], reply: string): number[];
}

/** One sequence to train on; `lossMask[t]` = 1 where token t is learned. */
export interface SftSequence {
  tokens: number[];
  lossMask: number[];
}

/** Model calls → sequences: a call whose prompt extends the sequence so far continues it, any other starts a new one. */
export function mergeCalls(calls: readonly SampledCall[]): SftSequence[] {
  const sequences: SftSequence[] = [];
  for (const { promptTokenIds, completionTokenIds } of calls) {
    const current = sequences.at(-1);
    const extends_ = current !== undefined && promptTokenIds.length >= current.tokens.length && current.tokens.every((token, index) => promptTokenIds[index] === token);
    if (current && extends_) {
      const added = promptTokenIds.slice(current.tokens.length);
      current.tokens.push(...added, ...completionTokenIds);
      current.lossMask.push(...added.map(() => 0), ...completionTokenIds.map(() => 1));
    } else {
      sequences.push({ tokens: [...promptTokenIds, ...completionTokenIds], lossMask: [...promptTokenIds.map(() => 0), ...completionTokenIds.map(() => 1)] });
    }
  }
  return sequences;
}

/** The row's sequences by `method`; `sampled` on a row without token ids is an InputError naming the row. */
export function tokenizeSftRow(row: SftRow, method: TokenizeMethod, tokenizer: ChatTokenizer | undefined): SftSequence[] {
  if (method === "sampled") {
    if (!row.sampled) throw new InputError(`row ${row.id}: no sampled token ids; use --tokenize-method hf_template or cumulative`);
    return mergeCalls(row.sampled);
  }
  if (!tokenizer) throw new InputError(`--tokenize-method ${method}: this backend has no chat template; use --tokenize-method sampled`);
  const turns = method === "hf_template" ? [row.messages.length - 1] : row.messages.flatMap((message, index) => (message.role === "assistant" ? [index] : []));
  return mergeCalls(
    turns.map((index) => ({
      promptTokenIds: tokenizer.promptTokenIds(row.messages.slice(0, index)),
      completionTokenIds: tokenizer.completionTokenIds(row.messages.slice(0, index), row.messages[index]!.content),
    })),
  );
}
