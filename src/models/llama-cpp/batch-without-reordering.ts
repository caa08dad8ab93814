/**
 * How one context's queued evaluations are packed into llama.cpp batches so that concurrent sequences never race.
 *
 * node-llama-cpp samples each sequence of a batch in its own thread, and each reads the batch's logits through
 * llama_get_logits_ith, which first reorders the output rows whenever llama.cpp computed them out of batch order
 * (llama_context::output_reorder, unguarded). Two threads reordering at once corrupt the logits: measured here, 16 of
 * 32 greedy sequences started together diverged from the greedy answer when logprobs were asked for. With several
 * sequences, llama.cpp splits a batch into micro-batches of consecutive sequence ids taking equal token counts, so
 * outputs leave batch order only when a sequence with more tokens precedes one with fewer. Hence: a batch is either
 * single tokens (decode steps), in sequence order so that consecutive ids share a micro-batch, or one multi-token
 * evaluation (a prompt) alone. Batches of the two kinds alternate while both wait, so a prompt never starves.
 */
import type { BatchItem, CustomBatchingPrioritizationStrategy, EvaluationPriority, PrioritizedBatchItem } from "node-llama-cpp";

/** The key an evaluation on the sequence in `slot` (its index in the order the context's sequences were taken) passes as `evaluationPriority`, which nothing else in the context reads. */
export function sequenceOrder(slot: number): EvaluationPriority {
  return (slot + 1) as EvaluationPriority;
}

/** The strategy for one context (it alternates decode and prompt batches, so it keeps which came last). */
export function batchWithoutReordering(): CustomBatchingPrioritizationStrategy {
  let lastWasDecode = false;
  return ({ items, size }) => {
    const decodes = items.filter((item) => item.tokens.length === 1);
    const prompt = items.find((item) => item.tokens.length > 1);
    if (decodes.length > 0 && (prompt === undefined || !lastWasDecode)) {
      lastWasDecode = true;
      return [...decodes].sort(bySequence).slice(0, size).map((item): PrioritizedBatchItem => ({ item, processAmount: 1 }));
    }
    lastWasDecode = false;
    return prompt ? [{ item: prompt, processAmount: Math.min(prompt.tokens.length, size) }] : [];
  };
}

const bySequence = (first: BatchItem, second: BatchItem) => first.evaluationPriority - second.evaluationPriority;
