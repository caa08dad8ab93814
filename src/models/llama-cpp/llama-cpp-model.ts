/**
 * A GGUF model on llama.cpp (node-llama-cpp, loaded lazily): its tokenizer, its own chat template, and contexts to
 * sample in. One loaded model serves several contexts (the base weights, and LoRA adapters on top for the Tinker
 * server's sampler versions).
 */
import type { Llama, LlamaModel, Token } from "node-llama-cpp";
import { z } from "zod";
import { InputError } from "../../core/errors/input-error.js";
import type { ChatMessage } from "../../core/message.js";
import { ggufChatTemplate, type RenderChat } from "./gguf-chat-template.js";
import { LlamaCppContext, type LlamaCppContextOptions } from "./llama-cpp-context.js";
import { loadNodeLlamaCpp } from "./load-node-llama-cpp.js";

/** Where llama.cpp computes: the CPU (the default), or a GPU backend of the prebuilt binaries. */
export type LlamaGpu = false | "auto" | "cuda" | "vulkan" | "metal";

const GpuSchema = z.enum(["cpu", "auto", "cuda", "vulkan", "metal"]);

/** RLLM_LLAMA_GPU: `cuda` (or vulkan, metal, auto) puts the model on a GPU with node-llama-cpp's prebuilt binaries; unset or `cpu`, the CPU. */
export function gpuFromEnvironment(value = process.env.RLLM_LLAMA_GPU): LlamaGpu {
  if (value === undefined || value === "") return false;
  const parsed = GpuSchema.safeParse(value);
  if (!parsed.success) throw new InputError(`RLLM_LLAMA_GPU=${value}: expected one of ${GpuSchema.options.join(", ")}`);
  return parsed.data === "cpu" ? false : parsed.data;
}

export interface LlamaCppModelOptions {
  /** The GGUF file. */
  file: string;
  /** The name requests use. */
  name: string;
  /** CPU threads (chooseThreadCount). */
  threads: number;
  /** Tokens per sequence; default the model's training context, at most 2048 (each sequence holds its own KV cache). */
  contextSize?: number;
  /** Parallel sequences per context: choices and requests sampled at once, in one batch per step (default 8). */
  sequences?: number;
  /** Default: RLLM_LLAMA_GPU, else the CPU. */
  gpu?: LlamaGpu;
}

// Enough for eval prompts and their answers; 8 sequences of 2048 tokens take about 380 MB of KV cache for SmolLM2-135M.
const DEFAULT_CONTEXT_SIZE = 2048;
const DEFAULT_SEQUENCES = 8;

export class LlamaCppModel {
  private constructor(
    private readonly llama: Llama,
    /** The loaded weights (node-llama-cpp's model). */
    readonly model: LlamaModel,
    readonly name: string,
    readonly file: string,
    readonly contextSize: number,
    private readonly sequences: number,
    private readonly threads: number,
    private readonly render: RenderChat,
    private readonly addsBos: boolean,
  ) {}

  /** Loads the GGUF (`build: "never"`: only prebuilt binaries, nothing is compiled or downloaded). */
  static async load(options: LlamaCppModelOptions): Promise<LlamaCppModel> {
    const { getLlama, LlamaLogLevel } = await loadNodeLlamaCpp();
    const llama = await getLlama({ gpu: options.gpu ?? gpuFromEnvironment(), build: "never", maxThreads: options.threads, logLevel: LlamaLogLevel.error });
    const model = await llama.loadModel({ modelPath: options.file });
    const metadata = model.fileInfo.metadata;
    const templateText = metadata.tokenizer.chat_template;
    if (typeof templateText !== "string") throw new Error(`${options.file}: the GGUF has no tokenizer.chat_template, so chats cannot be rendered`);
    const render = ggufChatTemplate(templateText, { bos: model.tokens.bosString ?? "", eos: model.tokens.eosString ?? "" });
    const contextSize = Math.min(options.contextSize ?? DEFAULT_CONTEXT_SIZE, model.trainContextSize);
    const addsBos = metadata.tokenizer.ggml.add_bos_token === true && model.tokens.bos !== null;
    return new LlamaCppModel(llama, model, options.name, options.file, contextSize, options.sequences ?? DEFAULT_SEQUENCES, options.threads, render, addsBos);
  }

  get vocabularySize(): number {
    return this.model.fileInfo.metadata.tokenizer.ggml.tokens.length;
  }

  /** Prompt ids of a chat with the GGUF's template; BOS first when the tokenizer adds one and the template did not write it. */
  applyChatTemplate(messages: readonly ChatMessage[]): number[] {
    const ids = this.encodeText(this.render(messages));
    const bos = this.model.tokens.bos;
    return this.addsBos && bos !== null && ids[0] !== bos ? [bos, ...ids] : ids;
  }

  /** Ids of text; special-token strings (`<|im_start|>`) become their tokens, as Hugging Face tokenizers read them. */
  encodeText(text: string): number[] {
    return this.model.tokenize(text, true);
  }

  /** The text of ids, special tokens included. */
  decodeTokens(ids: readonly number[]): string {
    return this.model.detokenize(ids as Token[], true);
  }

  tokenText(id: number): string {
    return this.model.detokenize([id as Token], true);
  }

  /** Whether `id` ends a generation (EOS, end of turn). */
  isEndToken(id: number): boolean {
    return this.model.isEogToken(id as Token);
  }

  /** A context to sample in, with its own sequences and KV cache; on the base weights, or with a LoRA adapter (GGUF). */
  async createContext(options: Pick<LlamaCppContextOptions, "loraFile"> = {}): Promise<LlamaCppContext> {
    return LlamaCppContext.create(this.model, { contextSize: this.contextSize, sequences: this.sequences, threads: this.threads, ...options });
  }

  async dispose(): Promise<void> {
    await this.model.dispose();
    await this.llama.dispose();
  }
}
