/**
 * Turns a trajectory's steps into token sequences from the sampler's own token ids (never retokenised):
 * consecutive calls whose prompt extends the previous prompt plus completion merge into one sequence.
 */
import type { Step } from "../../core/step.js";

/** One trainable sequence: the first prompt, then sampled tokens (mask 1) and observation tokens (mask 0). */
export interface TokenSequence {
  tokens: number[];
  /** 1 on tokens the model sampled (trained on), 0 on prompt, tool output and chat-template glue. */
  lossMask: number[];
  /** Sampler log-probability of each token; 0 where the mask is 0. */
  samplerLogprobs: number[];
  /** Length of the first prompt: tokens[0, promptLength) are context, never trained on. */
  promptLength: number;
  /** Indices of the steps that make up this sequence. */
  stepIndices: number[];
}

/** How steps become sequences: "prefix" merges extending calls, "per_call" keeps one sequence per call. */
export type MergeMode = "prefix" | "per_call";

/** Why a trajectory cannot be turned into sequences; the trajectory is dropped and counted, never padded. */
export type SequenceFailure = "missing_token_ids" | "missing_logprobs";

export type BuildSequencesResult =
  | { ok: true; sequences: TokenSequence[] }
  | { ok: false; reason: SequenceFailure; stepIndex: number };

/** Sequences of `steps`, or the first step whose token ids or logprobs are missing. */
export function buildTokenSequences(steps: readonly Step[], merge: MergeMode = "prefix"): BuildSequencesResult {
  const sequences: TokenSequence[] = [];
  let current: TokenSequence | undefined;
  for (const [stepIndex, step] of steps.entries()) {
    const prompt = step.promptTokenIds;
    const completion = step.completionTokenIds;
    if (!prompt || prompt.length === 0 || !completion) {
      return { ok: false, reason: "missing_token_ids", stepIndex };
    }
    const logprobs = step.logprobs;
    if (!logprobs || logprobs.length !== completion.length) {
      return { ok: false, reason: "missing_logprobs", stepIndex };
    }
    if (current && merge === "prefix" && startsWith(prompt, current.tokens)) {
      // The new prompt = everything so far + observation/template tokens the model did not sample.
      const observation = prompt.slice(current.tokens.length);
      append(current, observation, 0);
      append(current, completion, 1, logprobs);
      current.stepIndices.push(stepIndex);
    } else {
      current = { tokens: [], lossMask: [], samplerLogprobs: [], promptLength: prompt.length, stepIndices: [stepIndex] };
      append(current, prompt, 0);
      append(current, completion, 1, logprobs);
      sequences.push(current);
    }
  }
  return { ok: true, sequences };
}

function append(sequence: TokenSequence, tokens: readonly number[], mask: 0 | 1, logprobs?: readonly number[]): void {
  for (const [index, token] of tokens.entries()) {
    sequence.tokens.push(token);
    sequence.lossMask.push(mask);
    sequence.samplerLogprobs.push(logprobs ? logprobs[index]! : 0);
  }
}

function startsWith(tokens: readonly number[], prefix: readonly number[]): boolean {
  if (prefix.length > tokens.length) return false;
  for (let index = 0; index < prefix.length; index++) if (tokens[index] !== prefix[index]) return false;
  return true;
}
