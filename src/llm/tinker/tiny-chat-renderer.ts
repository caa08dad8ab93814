/** The ChatRenderer of the embedded tiny model (tokenizer id `rllm/tiny`), which the local Tinker server trains. */
import { applyChatTemplate } from "../../models/tiny/chat-template.js";
import { decodeTokens, END_ID } from "../../models/tiny/tokenizer.js";
import type { ChatRenderer } from "./chat-renderer.js";

/** The tokenizer id the local Tinker server reports for the tiny model. */
export const TINY_TOKENIZER_ID = "rllm/tiny";

/** The tiny model's own template and tokenizer; tools are not part of its template. */
export const tinyChatRenderer: ChatRenderer = {
  id: TINY_TOKENIZER_ID,
  render: (messages) => applyChatTemplate(messages),
  decode: (ids) => decodeTokens(ids),
  stopTokenIds: [END_ID],
};
