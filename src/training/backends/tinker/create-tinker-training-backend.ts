/**
 * Builds the Tinker backend for `rllm train --backend tinker`: the base URL (--base-url, TINKER_BASE_URL or the
 * service), the credential from the environment, and the renderer for the model's tokenizer (the tiny model's own for
 * the local server; a Hugging Face tokenizer and chat template, from --tokenizer DIR or the hub, otherwise).
 */
import type { TrainingBackend } from "../../backend.js";
import type { BackendFlags } from "../training-backends.js";
import type { ChatRenderer } from "./chat-renderer.js";
import { tinkerBaseUrl, tinkerCredentials, type CredentialSource } from "./tinker-credentials.js";
import { createTinkerBackend } from "./tinker-backend.js";
import { TinkerHttpClient } from "./tinker-http-client.js";
import { TINY_TOKENIZER_ID, tinyChatRenderer } from "./tiny-chat-renderer.js";

/** The key sent to a local Tinker server on loopback when no TINKER_API_KEY is set (it accepts any tml- key). */
export const LOOPBACK_DEVELOPMENT_KEY = "tml-local-development";

/** The backend and the base model it trains ("" = the server's only model). */
export async function createTinkerTrainingBackend(_checkpoint?: string, flags: BackendFlags = {}): Promise<{ backend: TrainingBackend; baseModel: string }> {
  const client = createTinkerClient(flags.baseUrl, flags.notify);
  const backend = createTinkerBackend({
    client,
    loraRank: flags.loraRank,
    notify: flags.notify,
    loadRenderer: (tokenizerId) => loadRenderer(tokenizerId, flags.tokenizer),
  });
  return { backend, baseModel: flags.model ?? "" };
}

/** The Tinker HTTP client for a base URL (explicit, TINKER_BASE_URL or the service) and the environment's credential. */
export function createTinkerClient(explicitBaseUrl: string | undefined, notify?: (message: string) => void): TinkerHttpClient {
  const baseUrl = tinkerBaseUrl(explicitBaseUrl);
  return new TinkerHttpClient({ baseUrl, credentials: credentialsFor(baseUrl), notify });
}

function credentialsFor(baseUrl: string): CredentialSource {
  const loopback = /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\/|$)/.test(baseUrl);
  if (loopback && !process.env.TINKER_API_KEY && !process.env.TINKER_CREDENTIAL_CMD) return () => LOOPBACK_DEVELOPMENT_KEY;
  // Read at the first request, so that a backend built only to list its capabilities needs no key.
  let source: CredentialSource | undefined;
  return () => {
    source ??= tinkerCredentials();
    return source();
  };
}

/** The renderer for a tokenizer id: the tiny model's own, or Hugging Face files from `directory`, the cache or the hub. */
export async function loadRenderer(tokenizerId: string, directory: string | undefined): Promise<ChatRenderer> {
  if (tokenizerId === TINY_TOKENIZER_ID && !directory) return tinyChatRenderer;
  const { loadHfChatRenderer } = await import("./hf-chat-renderer.js");
  return loadHfChatRenderer(tokenizerId, directory);
}
