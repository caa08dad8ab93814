/**
 * One llama.cpp context: a KV cache split into parallel sequences. Each choice of each request takes a sequence, and
 * node-llama-cpp evaluates the tokens all busy sequences queue in the same tick as one batch, so concurrent requests
 * are decoded together rather than one after another.
 */
import type { ControlledEvaluateInputItem, LlamaContext, LlamaContextSequence, LlamaModel, Token } from "node-llama-cpp";
import { createRng } from "../../core/random.js";
import type { OnChoiceText, SampledChoice, ServedGenerateOptions } from "../server/served-model.js";
import { batchWithoutReordering, sequenceOrder } from "./batch-without-reordering.js";
import { sampleOnSequence } from "./sample-on-sequence.js";
import { SequencePool } from "./sequence-pool.js";

export interface LlamaCppContextOptions {
  contextSize: number;
  sequences: number;
  threads: number;
  /** A LoRA adapter GGUF applied on the base weights. */
  loraFile?: string;
}

export class LlamaCppContext {
  private constructor(
    private readonly model: LlamaModel,
    private readonly context: LlamaContext,
    private readonly pool: SequencePool<LlamaContextSequence>,
  ) {}

  static async create(model: LlamaModel, options: LlamaCppContextOptions): Promise<LlamaCppContext> {
    const context = await model.createContext({
      contextSize: options.contextSize,
      sequences: options.sequences,
      threads: options.threads,
      batching: { itemPrioritizationStrategy: batchWithoutReordering() },
      ...(options.loraFile ? { lora: { adapters: [{ filePath: options.loraFile }] } } : {}),
    });
    const sequences = Array.from({ length: options.sequences }, () => context.getSequence());
    return new LlamaCppContext(model, context, new SequencePool(sequences));
  }

  /** Samples `options.n` choices of one prompt, each on its own sequence and its own seeded stream (so choice i does not depend on n). */
  generate(promptIds: readonly number[], options: ServedGenerateOptions, onText?: OnChoiceText): Promise<SampledChoice[]> {
    if (promptIds.length === 0) throw new RangeError("Cannot generate from an empty prompt");
    const baseSeed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
    return Promise.all(
      Array.from({ length: options.n }, (_, index) =>
        this.pool.use((sequence, slot) =>
          sampleOnSequence(this.model, { sequence, slot }, promptIds, options, createRng((baseSeed * 7919 + index * 104729) | 0), onText && ((text) => onText(index, text))),
        ),
      ),
    );
  }

  /** Each token's raw logprob given those before it (null for the first): what the sampler would report for these tokens. */
  async sequenceLogprobs(ids: readonly number[]): Promise<(number | null)[]> {
    return this.pool.use(async (sequence, slot) => {
      await sequence.clearHistory();
      // Greedy options leave the logits as they are, so the probabilities are the raw softmax.
      const input: ControlledEvaluateInputItem[] = ids.slice(0, -1).map((id) => [id as Token, { generateNext: { probabilities: true, options: { temperature: 0 } } }]);
      const results = await sequence.controlledEvaluate(input, { evaluationPriority: sequenceOrder(slot) });
      await sequence.clearHistory();
      return [null, ...ids.slice(1).map((id, index) => Math.log(results[index]?.next.probabilities?.get(id as Token) ?? 0))];
    });
  }

  async dispose(): Promise<void> {
    await this.context.dispose();
  }
}
