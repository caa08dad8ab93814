/** Sampling from the tiny model: temperature, nucleus (top_p), stop strings, max tokens, seeded randomness, logprobs. */
import type { InferenceEngine, KvCache } from "./inference-engine.js";
import type { Rng } from "../../core/random.js";
import { firstStop } from "../server/first-stop.js";
import { pickSortedToken } from "../server/pick-sorted-token.js";
import type { SampledChoice, TokenAlternative } from "../server/served-model.js";
import { sharedStepScheduler } from "./step-scheduler.js";
import { decodeTokens, END_ID, isSpecialToken } from "./tokenizer.js";

export interface SampleOptions {
  maxTokens: number;
  /** 0 means greedy. */
  temperature: number;
  topP: number;
  stop: string[];
  /** How many alternatives to report per position (0 for none). */
  topLogprobs: number;
}

/** Called after each sampled token with the text that is final so far (never part of a stop string). */
export type OnText = (safeText: string) => void;

/**
 * Samples one continuation of a prefilled prompt: `cache` holds the prompt and `logits` are its last logits.
 * The end token and the tokens of a stop string stay in `tokenIds`; the text stops before the stop string.
 */
export async function sampleChoice(
  engine: InferenceEngine,
  cache: KvCache,
  promptLogits: Float32Array,
  options: SampleOptions,
  random: Rng,
  onText?: OnText,
): Promise<SampledChoice> {
  const choice: SampledChoice = { tokenIds: [], text: "", finishReason: "length", logprobs: [], topLogprobs: [] };
  const holdBack = Math.max(0, ...options.stop.map((stop) => stop.length - 1));
  let logits = promptLogits;
  let generatedText = "";
  for (let index = 0; index < options.maxTokens; index++) {
    const logprobs = logSoftmax(logits);
    const token = pickToken(logprobs, options, random);
    choice.tokenIds.push(token);
    choice.logprobs.push(logprobs[token]!);
    if (options.topLogprobs > 0) choice.topLogprobs.push(topAlternatives(logprobs, options.topLogprobs));
    if (token === END_ID) {
      choice.finishReason = "stop";
      break;
    }
    if (!isSpecialToken(token)) generatedText += decodeTokens([token]);
    const stopAt = firstStop(generatedText, options.stop);
    if (stopAt !== undefined) {
      generatedText = generatedText.slice(0, stopAt);
      choice.finishReason = "stop";
      break;
    }
    onText?.(generatedText.slice(0, Math.max(0, generatedText.length - holdBack)));
    if (index + 1 === options.maxTokens || cache.length >= engine.config.contextLength) break;
    // Each step takes a turn, so other requests, health checks and stream writes run between tokens.
    await sharedStepScheduler.step();
    logits = engine.step(token, cache);
  }
  choice.text = generatedText;
  onText?.(generatedText);
  return choice;
}


/** Log-softmax of logits, in float64. */
export function logSoftmax(logits: Float32Array): Float64Array {
  let maximum = -Infinity;
  for (const value of logits) if (value > maximum) maximum = value;
  let total = 0;
  for (const value of logits) total += Math.exp(value - maximum);
  const logTotal = maximum + Math.log(total);
  return Float64Array.from(logits, (value) => value - logTotal);
}

function pickToken(logprobs: Float64Array, options: SampleOptions, random: Rng): number {
  if (options.temperature === 0) return argmax(logprobs);
  const sorted = Array.from(logprobs, (logprob, id) => ({ id, logprob })).sort((a, b) => b.logprob - a.logprob || a.id - b.id);
  return pickSortedToken(sorted, options.temperature, options.topP, random);
}

function argmax(values: Float64Array): number {
  let best = 0;
  for (let index = 1; index < values.length; index++) if (values[index]! > values[best]!) best = index;
  return best;
}

function topAlternatives(logprobs: Float64Array, count: number): TokenAlternative[] {
  return Array.from(logprobs, (logprob, id) => ({ id, logprob }))
    .sort((a, b) => b.logprob - a.logprob || a.id - b.id)
    .slice(0, count);
}
