/** The embedded tiny model behind the OpenAI-compatible model server (`rllm serve --model tiny`, and eval's default endpoint). */
import { startModelServer } from "../server/model-server.js";
import type { ServedModel } from "../server/served-model.js";
import { applyChatTemplate } from "./chat-template.js";
import { loadTinyModel, type TinyModel } from "./tiny-model.js";
import { decodeTokens, encodeText, tokenText, VOCABULARY } from "./tokenizer.js";

/** The model name the server answers to. */
export const TINY_MODEL_NAME = "tiny";

export interface TinyServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** Checkpoint to serve; the shipped one by default. */
  checkpointDir?: string;
  /** An already loaded model (e.g. a trainer's current policy) instead of a checkpoint. */
  model?: TinyModel;
}

export interface TinyServer {
  /** The server's origin (`http://127.0.0.1:PORT`); an OpenAI client's baseURL is `${url}/v1`. */
  url: string;
  model: TinyModel;
  close(): Promise<void>;
}

/** Largest request body in bytes: prompts fit in 104 tokens, so anything bigger is refused with a 413 before parsing. */
export const TINY_SERVER_MAX_BODY_BYTES = 1_000_000;

/** The tiny model as the server sees it: its template (with prompt compaction), tokenizer and sampler. */
export function servedTinyModel(model: TinyModel): ServedModel {
  return {
    name: TINY_MODEL_NAME,
    contextLength: model.config.contextLength,
    vocabularySize: VOCABULARY.length,
    applyChatTemplate,
    encodeText,
    decodeTokens: (ids) => decodeTokens(ids, true),
    tokenText,
    // The tiny sampler computes logprobs for every token anyway (they come with its softmax), so `logprobs` is moot.
    generate: (promptIds, options, onText) => model.generate(promptIds, options, onText),
  };
}

/** Starts the server; resolves once it listens. */
export async function startTinyServer(options: TinyServerOptions = {}): Promise<TinyServer> {
  const model = options.model ?? (await loadTinyModel(options.checkpointDir));
  const server = await startModelServer(servedTinyModel(model), { host: options.host ?? "127.0.0.1", port: options.port ?? 0, maxBodyBytes: TINY_SERVER_MAX_BODY_BYTES });
  return { url: server.url, model, close: server.close };
}
