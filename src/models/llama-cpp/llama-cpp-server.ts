/** A GGUF model on llama.cpp behind the OpenAI-compatible model server (`rllm serve --model <name>`, and eval without --base-url). */
import { startModelServer } from "../server/model-server.js";
import type { ServedModel } from "../server/served-model.js";
import { threadCount } from "./choose-thread-count.js";
import type { LlamaCppContext } from "./llama-cpp-context.js";
import { LlamaCppModel, type LlamaGpu } from "./llama-cpp-model.js";

export interface LlamaCppServerOptions {
  /** The GGUF file and the name requests use. */
  file: string;
  name: string;
  port: number;
  host: string;
  /** CPU threads; by default RLLM_LLAMA_THREADS, else the cores the load average leaves free (threadCount). */
  threads?: number;
  contextSize?: number;
  gpu?: LlamaGpu;
}

export interface LlamaCppServer {
  /** The server's origin; an OpenAI client's baseURL is `${url}/v1`. */
  url: string;
  model: LlamaCppModel;
  /** The thread count in use. */
  threads: number;
  close(): Promise<void>;
}

/** Prompts of a real model can be long; 16 MB holds any context llama.cpp can take. */
export const LLAMA_CPP_SERVER_MAX_BODY_BYTES = 16_000_000;

/** A loaded model and one of its contexts as the server sees them. */
export function servedLlamaCppModel(model: LlamaCppModel, context: LlamaCppContext): ServedModel {
  return {
    name: model.name,
    contextLength: model.contextSize,
    vocabularySize: model.vocabularySize,
    applyChatTemplate: (messages) => model.applyChatTemplate(messages),
    encodeText: (text) => model.encodeText(text),
    decodeTokens: (ids) => model.decodeTokens(ids),
    tokenText: (id) => model.tokenText(id),
    generate: (promptIds, options, onText) => context.generate(promptIds, options, onText),
  };
}

/** Loads the model and starts the server; resolves once it listens. */
export async function startLlamaCppServer(options: LlamaCppServerOptions): Promise<LlamaCppServer> {
  const threads = threadCount(options.threads);
  const model = await LlamaCppModel.load({ file: options.file, name: options.name, threads, contextSize: options.contextSize, gpu: options.gpu });
  // A port in use or a context too large for memory: what was loaded goes back rather than outlive the failed start.
  const context = await model.createContext().catch(async (error: unknown) => {
    await model.dispose();
    throw error;
  });
  const server = await startModelServer(servedLlamaCppModel(model, context), { host: options.host, port: options.port, maxBodyBytes: LLAMA_CPP_SERVER_MAX_BODY_BYTES }).catch(
    async (error: unknown) => {
      await context.dispose();
      await model.dispose();
      throw error;
    },
  );
  return {
    url: server.url,
    model,
    threads,
    async close() {
      await server.close();
      await context.dispose();
      await model.dispose();
    },
  };
}
