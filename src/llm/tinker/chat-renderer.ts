/** The ChatRenderer contract: Tinker is token in, token out, so the client renders chats and decodes completions itself. */
import type { ChatMessage, ToolDefinition } from "../../core/message.js";

/** Renders chats to prompt ids with the base model's template, and decodes sampled ids, with its tokenizer. */
export interface ChatRenderer {
  /** The tokenizer id it stands for (get_info's tokenizer_id). */
  readonly id: string;
  /** Prompt ids for `messages` (and the offered tools), ending where the assistant's reply starts. */
  render(messages: readonly ChatMessage[], tools?: readonly ToolDefinition[]): number[];
  /** The text of completion ids, without special tokens. */
  decode(ids: readonly number[]): string;
  /** Ids that end an assistant turn (sent to asample as stop tokens). */
  readonly stopTokenIds: readonly number[];
}
