/**
 * Builds the Tinker backend for `rllm train` and `rllm sft --backend tinker`: the base URL (--base-url, TINKER_BASE_URL or the
 * service), the credential from the environment, and the renderer for the model's tokenizer (the tiny model's own for
 * the local server; a Hugging Face tokenizer and chat template, from --tokenizer DIR or the hub, otherwise).
 */
import { existsSync } from "node:fs";
import { InputError } from "../../../core/errors/input-error.js";
import type { TrainingBackend } from "../../backend.js";
import { UnsupportedRequestError } from "../../errors/unsupported-request-error.js";
import type { ChatTokenizer } from "../../sft/tokenize-sft-row.js";
import { tinyChatTokenizer } from "../../sft/tiny-chat-tokenizer.js";
import type { BackendFlags } from "../create-training-backend.js";
import type { ChatRenderer } from "../../../llm/tinker/chat-renderer.js";
import { createTinkerClient } from "../../../llm/tinker/create-tinker-client.js";
import { createTinkerBackend } from "./tinker-backend.js";
import { TinkerUnreachableError } from "../../../llm/tinker/tinker-errors.js";
import { TINY_TOKENIZER_ID, tinyChatRenderer } from "../../../llm/tinker/tiny-chat-renderer.js";

/**
 * The backend, the base model it trains ("" = the server's only model) and, once open, the model's chat tokenizer.
 * A missing --tokenizer directory is refused before the service is contacted; an unreachable service and a model it
 * does not serve are errors naming the flag.
 */
export async function createTinkerTrainingBackend(
  _checkpoint?: string,
  flags: BackendFlags = {},
): Promise<{ backend: TrainingBackend; baseModel: string; chatTokenizer: () => ChatTokenizer | undefined }> {
  if (flags.tokenizer && !existsSync(flags.tokenizer)) throw new InputError(`--tokenizer ${flags.tokenizer}: no such directory`);
  const client = createTinkerClient(flags.baseUrl, flags.notify);
  let chatTokenizer: ChatTokenizer | undefined;
  const backend = createTinkerBackend({
    client,
    loraRank: flags.loraRank,
    notify: flags.notify,
    loadRenderer: async (tokenizerId) => {
      const format = await loadChatFormat(tokenizerId, flags.tokenizer);
      chatTokenizer = format.tokenizer;
      return format.renderer;
    },
  });
  const withFlagErrors: TrainingBackend = {
    ...backend,
    async open(request) {
      try {
        return await backend.open(request);
      } catch (error) {
        if (error instanceof TinkerUnreachableError) throw new Error(`${flags.baseUrl ? "--base-url" : process.env.TINKER_BASE_URL ? "TINKER_BASE_URL" : "the default Tinker URL"}: ${error.message}`);
        if (error instanceof UnsupportedRequestError && error.option === "base model") {
          throw new InputError(`--model ${flags.model ?? "(not given)"}: the Tinker service does not serve it; it serves ${error.supported.join(", ") || "no model"}`);
        }
        throw error;
      }
    },
  };
  return { backend: withFlagErrors, baseModel: flags.model ?? "", chatTokenizer: () => chatTokenizer };
}

/** A tokenizer id's renderer (for sampling) and SFT tokenizer, both from the same template and vocabulary. */
export async function loadChatFormat(tokenizerId: string, directory: string | undefined): Promise<{ renderer: ChatRenderer; tokenizer: ChatTokenizer }> {
  if (tokenizerId === TINY_TOKENIZER_ID && !directory) return { renderer: tinyChatRenderer, tokenizer: tinyChatTokenizer };
  const [{ loadHfChatRenderer }, { hfChatTokenizer }] = await Promise.all([import("../../../llm/tinker/hf-chat-renderer.js"), import("./hf-chat-tokenizer.js")]);
  const renderer = await loadHfChatRenderer(tokenizerId, directory);
  return { renderer, tokenizer: hfChatTokenizer(renderer) };
}
