/**
 * One choice sampled on one llama.cpp context sequence, token by token, so that each step can ask for exactly what the
 * request needs:
 * - no logprobs: llama.cpp samples (greedy, or temperature and top_p with a seed drawn per step from the choice's Rng);
 * - logprobs at temperature 0, or at temperature 1 with top_p 1: llama.cpp samples and reports the token's raw probability;
 * - anything else (top_logprobs, or logprobs with another temperature or top_p): llama.cpp reports the whole raw
 *   distribution and the token is picked here (pickSortedToken), the same arithmetic the tiny model uses.
 * Logprobs are the model's raw ones (temperature 1, before top_p), as vLLM reports by default.
 */
import type { ControlledEvaluateInputItem, LlamaContextSequence, LlamaModel, Token } from "node-llama-cpp";
import type { Rng } from "../../core/random.js";
import { firstStop } from "../server/first-stop.js";
import { pickSortedToken } from "../server/pick-sorted-token.js";
import { sequenceOrder } from "./batch-without-reordering.js";
import type { SampledChoice, ServedGenerateOptions, TokenAlternative } from "../server/served-model.js";

type Step = "token" | "confidence" | "distribution";

function stepKind(options: ServedGenerateOptions): Step {
  if (options.topLogprobs > 0) return "distribution";
  if (!options.logprobs) return "token";
  return options.temperature === 0 || (options.temperature === 1 && options.topP === 1) ? "confidence" : "distribution";
}

// node-llama-cpp fills in top_k 40 and top_p 0.95 for options left undefined; null leaves those samplers out of the
// chain (its options object drops null fields), which is what an OpenAI request without top_k means. top_k over the
// whole vocabulary would sort 49k logits every token.
const absent = null as unknown as undefined;

function generateNext(kind: Step, options: ServedGenerateOptions, random: Rng): NonNullable<Exclude<ControlledEvaluateInputItem, number>[1]>["generateNext"] {
  // Greedy options leave the logits as they are, so the probabilities are the raw softmax; the token is picked here.
  if (kind === "distribution") return { probabilities: true, options: { temperature: 0 } };
  const seed = Math.floor(random() * 2 ** 32);
  const sampling = { temperature: options.temperature, topK: absent, topP: options.topP < 1 ? options.topP : absent, minP: absent, seed };
  return { token: true, confidence: kind === "confidence", options: sampling };
}

// node-llama-cpp brands token ids; the server's are plain numbers from the same vocabulary.
const tokens = (ids: readonly number[]) => ids as Token[];
const token = (id: number) => id as Token;

/** Called with the text that is final so far (never part of a stop string). */
export type OnText = (text: string) => void;

/**
 * Samples one continuation of `promptIds` on `sequence` (whose cached prefix is reused). The end-of-generation token
 * and the tokens of a stop string stay in `tokenIds`; the text stops before the stop string.
 */
export async function sampleOnSequence(
  model: LlamaModel,
  { sequence, slot }: { sequence: LlamaContextSequence; slot: number },
  promptIds: readonly number[],
  options: ServedGenerateOptions,
  random: Rng,
  onText?: OnText,
): Promise<SampledChoice> {
  const kind = stepKind(options);
  // Keep the cached state that matches the prompt, minus its last token: that token is evaluated again for its logits.
  await sequence.adaptStateToTokens(tokens(promptIds.slice(0, -1)), false);
  const reused = sequence.nextTokenIndex;
  let input: ControlledEvaluateInputItem[] = [...tokens(promptIds.slice(reused, -1)), [token(promptIds.at(-1)!), { generateNext: generateNext(kind, options, random) }]];
  const choice: SampledChoice = { tokenIds: [], text: "", finishReason: "length", logprobs: [], topLogprobs: [] };
  const holdBack = Math.max(0, ...options.stop.map((stop) => stop.length - 1));
  while (choice.tokenIds.length < options.maxTokens) {
    const results = await sequence.controlledEvaluate(input, { evaluationPriority: sequenceOrder(slot) });
    const next = results.at(-1)?.next;
    if (!next) throw new Error("llama.cpp returned no next token");
    const sampled = takeToken(next, kind, options, random, choice);
    choice.tokenIds.push(sampled);
    if (model.isEogToken(token(sampled))) {
      choice.finishReason = "stop";
      break;
    }
    choice.text = model.detokenize(tokens(choice.tokenIds), false);
    const stopAt = firstStop(choice.text, options.stop);
    if (stopAt !== undefined) {
      choice.text = choice.text.slice(0, stopAt);
      choice.finishReason = "stop";
      return done(choice, onText);
    }
    // A token that ends inside a multi-byte character decodes to U+FFFD until the next one completes it.
    onText?.(choice.text.replace(/\uFFFD+$/, "").slice(0, Math.max(0, choice.text.length - holdBack)));
    input = [[token(sampled), { generateNext: generateNext(kind, options, random) }]];
  }
  choice.text = model.detokenize(tokens(choice.tokenIds.filter((id) => !model.isEogToken(token(id)))), false);
  return done(choice, onText);
}

function done(choice: SampledChoice, onText?: OnText): SampledChoice {
  onText?.(choice.text);
  return choice;
}

function takeToken(next: { token?: Token | null; confidence?: number; probabilities?: Map<Token, number> }, kind: Step, options: ServedGenerateOptions, random: Rng, choice: SampledChoice): number {
  if (kind === "distribution") {
    // The map is sorted by descending probability.
    const sorted: TokenAlternative[] = Array.from(next.probabilities ?? [], ([id, probability]) => ({ id, logprob: Math.log(probability) }));
    const picked = pickSortedToken(sorted, options.temperature, options.topP, random);
    choice.logprobs.push(Math.log(next.probabilities?.get(token(picked)) ?? 0));
    if (options.topLogprobs > 0) choice.topLogprobs.push(sorted.slice(0, options.topLogprobs));
    return picked;
  }
  if (next.token == null) throw new Error("llama.cpp sampled no token");
  if (kind === "confidence") choice.logprobs.push(Math.log(next.confidence ?? 0));
  return next.token;
}
