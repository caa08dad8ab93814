/**
 * Builds the Fireworks backend for `rllm train --backend fireworks`: the API base URL (--base-url, FIREWORKS_BASE_URL
 * or the service), FIREWORKS_API_KEY read at the first request (never printed), the renderer for the model's tokenizer
 * (as Tinker's), and the refusals that are the user's to fix turned into errors naming the flag.
 */
import { existsSync } from "node:fs";
import { InputError } from "../../../core/errors/input-error.js";
import type { TrainingBackend } from "../../backend.js";
import type { ChatTokenizer } from "../../sft/tokenize-sft-row.js";
import { loadChatFormat } from "../tinker/create-tinker-training-backend.js";
import type { BackendFlags } from "../create-training-backend.js";
import { createFireworksBackend } from "./fireworks-backend.js";
import { FireworksApiError, FireworksUnreachableError } from "./fireworks-errors.js";
import { FIREWORKS_DEFAULT_BASE_URL, FireworksRestClient } from "./fireworks-rest-client.js";

/** The backend, the base model it trains (--model; the backend refuses to open without one) and, once open, its chat tokenizer. */
export async function createFireworksTrainingBackend(
  _checkpoint?: string,
  flags: BackendFlags = {},
): Promise<{ backend: TrainingBackend; baseModel: string; chatTokenizer: () => ChatTokenizer | undefined }> {
  if (flags.tokenizer && !existsSync(flags.tokenizer)) throw new InputError(`--tokenizer ${flags.tokenizer}: no such directory`);
  const baseUrl = (flags.baseUrl ?? process.env.FIREWORKS_BASE_URL ?? FIREWORKS_DEFAULT_BASE_URL).replace(/\/+$/, "");
  const apiKey = fireworksApiKey();
  let chatTokenizer: ChatTokenizer | undefined;
  const backend = createFireworksBackend({
    control: new FireworksRestClient(baseUrl, apiKey),
    apiKey,
    loraRank: flags.loraRank,
    notify: flags.notify,
    // The gateway's get_info names the tokenizer, as Tinker's does; SFT rows without token ids are tokenized with it.
    loadRenderer: async (tokenizerId) => {
      const format = await loadChatFormat(tokenizerId, flags.tokenizer);
      chatTokenizer = format.tokenizer;
      return format.renderer;
    },
    // A local fake (tests) is ready at once; the service takes minutes, and the SDK polls every 5 s.
    pollMs: /^http:\/\/127\.0\.0\.1[:/]/.test(baseUrl) ? 100 : undefined,
  });
  const withFlagErrors: TrainingBackend = {
    ...backend,
    async open(request) {
      try {
        return await backend.open(request);
      } catch (error) {
        if (error instanceof FireworksUnreachableError) throw new Error(`${flags.baseUrl ? "--base-url" : process.env.FIREWORKS_BASE_URL ? "FIREWORKS_BASE_URL" : "the Fireworks API"}: ${error.message}`);
        // The control plane checks the settings when the job is created: a refusal there is about --model or --lora-rank.
        if (error instanceof FireworksApiError && error.method === "POST" && /\/rlorTrainerJobs\?/.test(error.path) && error.status === 400) {
          throw new InputError(`--model ${request.baseModel}: Fireworks refused the trainer job: ${error.detail}`);
        }
        throw error;
      }
    },
  };
  return { backend: withFlagErrors, baseModel: flags.model ?? "", chatTokenizer: () => chatTokenizer };
}

/** FIREWORKS_API_KEY, read at the first request so that listing capabilities needs no key; missing is a usage error. */
function fireworksApiKey(): () => string {
  let key: string | undefined;
  return () => {
    key ??= process.env.FIREWORKS_API_KEY;
    if (!key) throw new InputError("Fireworks needs an API key: set FIREWORKS_API_KEY");
    return key;
  };
}
