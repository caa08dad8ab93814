/**
 * The contract between the OpenAI-compatible model server and a model it serves (the embedded tiny model, a GGUF on
 * llama.cpp): tokens in and out, a chat template, and sampling of n choices with logprobs.
 */
import type { ChatMessage } from "../../core/message.js";

/** One alternative token at a position. */
export interface TokenAlternative {
  id: number;
  logprob: number;
}

/**
 * A sampled continuation. `logprobs` are the model's raw log-probabilities (temperature 1, before top_p), as vLLM
 * reports by default; a model may leave them empty when the request did not ask for them.
 */
export interface SampledChoice {
  tokenIds: number[];
  text: string;
  finishReason: "stop" | "length";
  logprobs: number[];
  topLogprobs: TokenAlternative[][];
}

/** What one generate call asks for: n choices of one prompt; a seed makes the call replay exactly. */
export interface ServedGenerateOptions {
  n: number;
  maxTokens: number;
  /** 0 means greedy. */
  temperature: number;
  topP: number;
  stop: string[];
  seed?: number;
  /** Whether the reply reports logprobs (a model may skip computing them otherwise). */
  logprobs: boolean;
  /** How many alternatives to report per position (0 for none). */
  topLogprobs: number;
}

/** Called as choice `choice` grows, with its text that is final so far (never part of a stop string). */
export type OnChoiceText = (choice: number, text: string) => void;

/** A model behind the server. */
export interface ServedModel {
  /** The name requests give as `model` (or leave out). */
  readonly name: string;
  /** Tokens a prompt and its completion may take together. */
  readonly contextLength: number;
  readonly vocabularySize: number;
  /** Prompt ids of a chat, ending where the assistant's reply starts. */
  applyChatTemplate(messages: readonly ChatMessage[]): number[];
  /** Ids of plain text (no template; special-token strings are not parsed). */
  encodeText(text: string): number[];
  /** The text of ids, special tokens included. */
  decodeTokens(ids: readonly number[]): string;
  /** One token's text, as logprobs report it. */
  tokenText(id: number): string;
  generate(promptIds: readonly number[], options: ServedGenerateOptions, onText?: OnChoiceText): Promise<SampledChoice[]>;
}
