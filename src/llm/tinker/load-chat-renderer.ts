/** The chat renderer of a tokenizer id: the tiny model's own, or Hugging Face files from a directory, the cache or the hub. */
import type { ChatRenderer } from "./chat-renderer.js";
import { TINY_TOKENIZER_ID, tinyChatRenderer } from "./tiny-chat-renderer.js";

/** The renderer for `tokenizerId`; `directory` (--tokenizer) holds tokenizer.json and tokenizer_config.json. */
export async function loadChatRenderer(tokenizerId: string, directory: string | undefined): Promise<ChatRenderer> {
  if (tokenizerId === TINY_TOKENIZER_ID && !directory) return tinyChatRenderer;
  const { loadHfChatRenderer } = await import("./hf-chat-renderer.js");
  return loadHfChatRenderer(tokenizerId, directory);
}
